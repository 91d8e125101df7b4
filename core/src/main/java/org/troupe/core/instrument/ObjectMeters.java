package org.troupe.core.instrument;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the active objects of one class on one node were asked: requests served, waiting in their queues, the
 * time they waited there, and one-way calls that failed. Their bodies bump them; they are read only when the meters
 * are.
 */
public final class ObjectMeters {
    public static final ObjectMeters OFF = new ObjectMeters(false);

    private final boolean on;
    final LongAdder served = new LongAdder();
    final LongAdder queued = new LongAdder();
    final LongAdder waits = new LongAdder();
    final LongAdder waitNanos = new LongAdder();
    final LongAdder oneWayFailures = new LongAdder();

    ObjectMeters(final boolean on) {
        this.on = on;
    }

    /** A request entered a queue: the time it did, to give to {@link #left}, or 0 when nothing counts. */
    public long queued() {
        if (!on) {
            return 0;
        }
        queued.increment();
        return System.nanoTime();
    }

    /** A request that entered a queue at {@code queuedAt} left it, to be served ({@code served}) or refused. */
    public void left(final long queuedAt, final boolean served) {
        if (on && queuedAt != 0) {
            queued.decrement();
            if (served) {
                waits.increment();
                waitNanos.add(System.nanoTime() - queuedAt);
            }
        }
    }

    /** A request was served (from the queue or at once). */
    public void served() {
        if (on) {
            served.increment();
        }
    }

    /** A one-way call failed: its failure went to the one-way failure handlers, as nobody awaits it. */
    public void oneWayFailed() {
        if (on) {
            oneWayFailures.increment();
        }
    }
}
