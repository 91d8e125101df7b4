package org.troupe.bench.core;

import java.nio.ByteBuffer;
import java.util.concurrent.locks.LockSupport;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.Progress;

/**
 * The receiving side of the endpoint cases, in the JVM it is opened in: an endpoint that answers every frame with a
 * one-byte frame, after copying the payload into its own buffer as a receiver must. In another JVM a thread spins
 * driving progress while frames come, as a rank blocked in a receive would, so frames are read and answered on it.
 */
final class EndpointEcho {
    private static final ByteBuffer NO_HEADER = ByteBuffer.allocate(0);

    private EndpointEcho() {}

    /**
     * Spins driving progress while frames come, as a rank blocked in a receive; after {@code idleNanos} without
     * one it parks, as the socket baseline's echo blocks after a millisecond, so that it takes no core from the
     * baselines measured meanwhile. A frame read while it parks (by an event loop) wakes it.
     */
    private static final class Poller {
        private final long idleNanos;
        volatile Thread thread;
        private volatile long frames;
        private volatile boolean parked;

        Poller(final long idleNanos) {
            this.idleNanos = idleNanos;
        }

        void frameCame() {
            frames++;
            final Thread t = thread;
            if (parked && t != null) {
                LockSupport.unpark(t);
            }
        }

        void run() {
            while (true) {
                final int spinning = Progress.startSpinning();
                long seen = frames;
                long lastFrame = System.nanoTime();
                while (System.nanoTime() - lastFrame < idleNanos) {
                    Progress.poll();
                    Thread.onSpinWait();
                    if (frames != seen) {
                        seen = frames;
                        lastFrame = System.nanoTime();
                    }
                }
                Progress.stopSpinning(spinning);
                Progress.beforePark();
                parked = true;
                if (frames == seen) { // checked after saying so: a frame now sees parked and unparks
                    LockSupport.park(this);
                }
                parked = false;
            }
        }
    }

    /**
     * Opens the echo endpoint {@code name}; with {@code idleMillis} > 0, starts the thread that spins driving
     * progress (a daemon) and parks after that long without a frame.
     */
    static EndpointAddress open(final String name, final int maxPayload, final long idleMillis) {
        final ByteBuffer copy = ByteBuffer.allocate(maxPayload);
        final ByteBuffer answer = ByteBuffer.allocate(1);
        final Endpoint[] self = new Endpoint[1];
        final Poller poller = new Poller(idleMillis * 1_000_000L);
        self[0] = TroupeRuntime.get().endpoints().open(name, (from, header, payload) -> {
            synchronized (copy) {
                copy.clear().put(payload);
                self[0].send(from, NO_HEADER, answer.clear(), false);
            }
            poller.frameCame();
        });
        if (idleMillis > 0) {
            poller.thread =
                    Thread.ofPlatform().daemon().name("endpoint-echo-progress").start(poller::run);
        }
        return self[0].address();
    }
}
