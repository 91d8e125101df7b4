package org.troupe.groups.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Where the waits for a group's members to arrive (a result group's futures to get their values) wait. The members
 * of a result group {@linkplain #signal signal} each arrival, from the thread that settles them; futures of other
 * calls and nested groups do not, so a wait also looks again every {@link #POLL_NANOS} ns.
 */
final class Arrivals {
    /** How often a wait for members that do not signal their arrival looks again. */
    static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** Wakes the waits, to look again. */
    void signal() {
        synchronized (this) {
            notifyAll();
        }
    }

    /**
     * Waits until {@code arrived} says enough members are there, no longer than {@code timeout} (null: as long as
     * it takes), and says whether they are. Not interruptible, as wait-by-necessity is not: an interrupt is kept in
     * the thread's flag.
     */
    boolean await(final BooleanSupplier arrived, final Duration timeout) {
        final long start = System.nanoTime();
        final long limit = timeout == null ? Long.MAX_VALUE : saturatedNanos(timeout);
        boolean interrupted = false;
        try {
            synchronized (this) {
                while (!arrived.getAsBoolean()) {
                    final long left = limit - (System.nanoTime() - start);
                    if (left <= 0) {
                        return false;
                    }
                    try {
                        TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, POLL_NANOS));
                    } catch (InterruptedException e) {
                        interrupted = true; // like wait-by-necessity, not interruptible; the flag is kept
                    }
                }
                return true;
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static long saturatedNanos(final Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE; // centuries: as good as no timeout
        }
    }
}
