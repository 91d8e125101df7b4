package org.troupe.mpi.fabric;

import java.util.concurrent.locks.LockSupport;

/**
 * A send or receive in flight: pending until matched (or cancelled, or failed). The waiter spins briefly, as a
 * message between ranks of one JVM often comes within microseconds, then parks; it wakes at least every
 * millisecond to notice an aborted job.
 */
public final class Operation {
    private static final int PENDING = 0;
    private static final int DONE = 1;
    private static final int CANCELLED = 2;
    private static final int FAILED = 3;
    /**
     * Spin this long before parking while the job's ranks have a core each (a message often comes within
     * microseconds, and waking a parked thread costs tens of them); barely at all when they outnumber the cores,
     * where a spinning rank would hold a core from the rank it waits for.
     */
    private static final long SPIN_NANOS = 200_000;
    private static final long OVERSUBSCRIBED_SPIN_NANOS = 2_000;
    private static final long PARK_NANOS = 1_000_000;

    private volatile int state = PENDING;
    private volatile Thread waiter;
    private int source;
    private int tag;
    private int count;
    private String failure;

    /** Completes it: a receive with the envelope and element count of the message it got. */
    void complete(final int source, final int tag, final int count) {
        this.source = source;
        this.tag = tag;
        this.count = count;
        finish(DONE);
    }

    void fail(final String why) {
        this.failure = why;
        finish(FAILED);
    }

    void cancelled() {
        finish(CANCELLED);
    }

    private void finish(final int outcome) {
        state = outcome; // after the fields: a reader that sees the state sees them
        final Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    public boolean isDone() {
        return state != PENDING;
    }

    public boolean isCancelled() {
        return state == CANCELLED;
    }

    /** Waits until it is done, and throws if it failed or the job was aborted meanwhile. */
    public void await(final Fabric fabric) {
        final long spinEnd = System.nanoTime() + (fabric.oversubscribed() ? OVERSUBSCRIBED_SPIN_NANOS : SPIN_NANOS);
        while (state == PENDING) {
            fabric.checkNotAborted();
            if (System.nanoTime() < spinEnd) {
                Thread.onSpinWait();
                continue;
            }
            waiter = Thread.currentThread();
            if (state == PENDING) {
                LockSupport.parkNanos(this, PARK_NANOS);
            }
        }
        waiter = null;
        checkNotFailed();
    }

    /** Throws if it failed. */
    public void checkNotFailed() {
        if (state == FAILED) {
            throw new FabricException(failure);
        }
    }

    public int source() {
        return source;
    }

    public int tag() {
        return tag;
    }

    /** Elements received. */
    public int count() {
        return count;
    }
}
