package org.troupe.bench.groups;

/** A small reply: a member's id and how many doubles it has received. */
public class Reading {
    private int id;
    private long received;

    public Reading() {}

    public Reading(final int id, final long received) {
        this.id = id;
        this.received = received;
    }

    public int id() {
        return id;
    }

    public long received() {
        return received;
    }
}
