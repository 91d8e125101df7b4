package org.troupe.bench.groups;

/** A group member of the benchmark: takes arrays, answers small objects. */
public class Receiver {
    private int id;
    private long received;

    public Receiver() {}

    public Receiver(final Integer id) {
        this.id = id;
    }

    public void receive(final double[] data) {
        received += data.length;
    }

    public Reading read() {
        return new Reading(id, received);
    }
}
