package org.troupe.tests.core;

/** A result that can be a future: a non-final class. */
public class Result {
    private int value;
    private long pid;

    public Result() {}

    public Result(final int value, final long pid) {
        this.value = value;
        this.pid = pid;
    }

    public int value() {
        return value;
    }

    /** The process that computed it. */
    public long pid() {
        return pid;
    }
}
