package org.troupe.tests.groups;

/** What a member returns: who it is and where it runs. */
public class Sample {
    private int id;
    private long pid;

    public Sample() {}

    public Sample(final int id, final long pid) {
        this.id = id;
        this.pid = pid;
    }

    public int id() {
        return id;
    }

    public long pid() {
        return pid;
    }
}
