package org.troupe.groups;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** A bounded wait for a condition that nothing signals, where a fixed sleep would guess how long it takes. */
final class Await {
    /** How often the condition is looked at again. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private Await() {}

    /** Returns once {@code condition} holds; fails the test naming {@code what} if it does not within {@code limit}. */
    static void until(final Duration limit, final BooleanSupplier condition, final String what) {
        final long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                fail("Still waiting after " + limit.toMillis() + " ms for " + what);
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }
}
