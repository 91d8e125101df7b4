package org.troupe.core.remote;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * The timer that fails the calls past the call deadline ({@code troupe.core.callTimeout}): on a daemon thread of its
 * own, it hands the time to {@code expire} ({@link PeerDirectory#expireCalls}) every eighth of the deadline. Nothing
 * runs without a deadline. {@link Remoting} makes it and closes it.
 */
final class CallDeadlines implements AutoCloseable {
    /** Null without a deadline. */
    private final ScheduledExecutorService timer;

    /** @param timeoutNanos how long a call may wait for its reply; 0 (or less) for as long as its peer lives */
    CallDeadlines(final long timeoutNanos, final LongConsumer expire) {
        if (timeoutNanos <= 0) {
            timer = null;
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("troupe-call-deadlines").factory());
        // A call fails at most an eighth of its deadline late, and a check costs little when nothing expires.
        final long period = Math.clamp(timeoutNanos / 8, 5_000_000L, 1_000_000_000L);
        timer.scheduleAtFixedRate(() -> expire.accept(System.nanoTime()), period, period, TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
