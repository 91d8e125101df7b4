package org.troupe.bench.core;

import java.util.concurrent.locks.LockSupport;

/**
 * The floor for handing a call to another thread and back: two platform threads exchanging a value through
 * volatile fields, both busy-waiting. The partner parks after a millisecond without work, so that it does not take
 * a core from the other implementations while they are measured.
 */
final class VolatileSpin implements AutoCloseable {
    private static final long IDLE_NANOS = 1_000_000L;

    private volatile long request;
    private volatile long response;
    private volatile boolean parked;
    private volatile boolean closed;
    private long sent;
    private final Thread partner;

    VolatileSpin() {
        partner = Thread.ofPlatform().daemon().name("volatile-spin").start(this::serve);
    }

    private void serve() {
        long seen = 0;
        long lastWork = System.nanoTime();
        while (!closed) {
            final long r = request;
            if (r != seen) {
                seen = r;
                response = r + 1;
                lastWork = System.nanoTime();
            } else if (System.nanoTime() - lastWork < IDLE_NANOS) {
                Thread.onSpinWait();
            } else {
                parked = true;
                if (request == seen && !closed) { // checked after saying so: a request now sees parked and unparks
                    LockSupport.park(this);
                }
                parked = false;
                lastWork = System.nanoTime();
            }
        }
    }

    /** Hands the next number to the partner and spins until it answers that number plus one. */
    long roundTrip() {
        final long x = ++sent;
        request = x;
        if (parked) {
            LockSupport.unpark(partner);
        }
        long r;
        while ((r = response) != x + 1) {
            Thread.onSpinWait();
        }
        return r;
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(partner);
    }
}
