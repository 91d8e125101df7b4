package org.troupe.core.instrument;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntSupplier;
import java.util.function.ToLongFunction;

/**
 * What the active objects of one class on one node were asked: requests served, the time they waited in their
 * queues, one-way calls that failed, and the requests queued now. Each object counts on its own thread in its own
 * {@link Counts} (no atomic instruction, no line shared with its callers), summed when the meters are read; what
 * an ended object counted is kept. The wait is timed for one request in {@value #SAMPLE_EVERY}, chosen at random
 * by its caller: two clock reads on every call would cost more than the rest of the counting.
 */
public final class ObjectMeters {
    public static final ObjectMeters OFF = new ObjectMeters(false);
    static final int SAMPLE_EVERY = 16;

    static final int SERVED = 0;
    static final int WAITS = 1;
    static final int WAIT_NANOS = 2;
    static final int ONE_WAY_FAILURES = 3;

    private final boolean on;
    /** What ended objects counted, and what callers' threads count (immediate services, failures): atomic. */
    private final Tally shared = new Tally(4);

    private final Set<Counts> live = ConcurrentHashMap.newKeySet();

    ObjectMeters(final boolean on) {
        this.on = on;
    }

    /** What one active object counts on its own thread, and its queue's length. */
    public static final class Counts {
        private static final Counts OFF = new Counts(null, () -> 0);

        private final ObjectMeters meters;
        private final Tally tally = new Tally(3);
        private final IntSupplier queue;

        private Counts(final ObjectMeters meters, final IntSupplier queue) {
            this.meters = meters;
            this.queue = queue;
        }

        /** The object's thread served a request that entered its queue at {@code queuedAt} (0: not timed). */
        public void served(final long queuedAt) {
            if (meters != null) {
                tally.bump(SERVED, 1);
                if (queuedAt != 0) {
                    tally.bump(WAITS, 1);
                    tally.bump(WAIT_NANOS, System.nanoTime() - queuedAt);
                }
            }
        }

        /** The object ended: what it counted stays in its class's meters. */
        public void ended() {
            if (meters != null) {
                synchronized (meters) { // moved in one step for the readers: a counter never goes back
                    if (meters.live.remove(this)) {
                        for (int slot = SERVED; slot <= WAIT_NANOS; slot++) {
                            meters.shared.add(slot, tally.get(slot));
                        }
                    }
                }
            }
        }
    }

    /** An object of this class lives, with its queue's length ({@code queueLength}, read from any thread). */
    public Counts live(final IntSupplier queueLength) {
        if (!on) {
            return Counts.OFF;
        }
        final Counts c = new Counts(this, queueLength);
        live.add(c);
        return c;
    }

    /** A request enters a queue now: the time to give to {@link Counts#served}, or 0 if its wait is not timed. */
    public long queued() {
        return on && ThreadLocalRandom.current().nextInt(SAMPLE_EVERY) == 0 ? System.nanoTime() : 0;
    }

    /** A request was served at once on its caller's thread (an immediate service). */
    public void servedAtOnce() {
        if (on) {
            shared.add(SERVED, 1);
        }
    }

    /** A one-way call failed: its failure went to the one-way failure handlers, as nobody awaits it. */
    public void oneWayFailed() {
        if (on) {
            shared.add(ONE_WAY_FAILURES, 1);
        }
    }

    synchronized long count(final int slot) {
        long n = shared.get(slot);
        if (slot != ONE_WAY_FAILURES) {
            for (final Counts c : live) {
                n += c.tally.get(slot);
            }
        }
        return n;
    }

    /** Requests queued now in the objects of this class on this node (read from their queues, approximately). */
    int queuedNow() {
        int n = 0;
        for (final Counts c : live) {
            n += Math.max(0, c.queue.getAsInt());
        }
        return n;
    }

    static ToLongFunction<ObjectMeters> slot(final int slot) {
        return m -> m.count(slot);
    }
}
