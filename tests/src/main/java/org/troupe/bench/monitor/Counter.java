package org.troupe.bench.monitor;

/** An active object the console bench calls on each node, so that the console has calls and queues to show. */
public class Counter {
    private long count;

    public Counter() {}

    public void add(final int n) {
        count += n;
    }

    public long count() {
        return count;
    }
}
