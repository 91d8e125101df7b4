package org.troupe.core.transport.tcp;

import io.netty.channel.SelectStrategy;
import io.netty.util.IntSupplier;

/**
 * An event loop that keeps polling its sockets without blocking for a while after its last I/O or task, then
 * blocks as usual. A thread blocked in the selector costs a wake-up on every message of a round trip (tens of
 * microseconds on a virtual machine whose other core sleeps); in an exchange of calls the loop finds the next
 * message at once instead. One instance per event loop.
 */
final class SpinningSelectStrategy implements SelectStrategy {
    private final long spinNanos;
    private long lastActivity = System.nanoTime();

    SpinningSelectStrategy(final long spinNanos) {
        this.spinNanos = spinNanos;
    }

    @Override
    public int calculateStrategy(final IntSupplier selectNow, final boolean hasTasks) throws Exception {
        final int ready = selectNow.get();
        final long now = System.nanoTime();
        if (ready > 0 || hasTasks) {
            lastActivity = now;
            return ready;
        }
        if (now - lastActivity < spinNanos) {
            Thread.onSpinWait();
            return CONTINUE;
        }
        return SELECT;
    }
}
