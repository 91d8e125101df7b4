package org.troupe.bench.core;

import java.nio.ByteBuffer;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.Endpoints;
import org.troupe.core.spi.Progress;

/**
 * The receiving side of the endpoint cases, in the JVM it is opened in: an endpoint that answers every frame with a
 * one-byte frame, after copying the payload into its own buffer as a receiver must. In another JVM a thread spins
 * driving progress, as a rank blocked in a receive would, so frames are read and answered on it.
 */
final class EndpointEcho {
    private static final ByteBuffer NO_HEADER = ByteBuffer.allocate(0);

    private EndpointEcho() {
    }

    /** Opens the echo endpoint {@code name}; with {@code polling}, starts the spinning thread (a daemon). */
    static EndpointAddress open(final String name, final int maxPayload, final boolean polling) {
        final ByteBuffer copy = ByteBuffer.allocate(maxPayload);
        final ByteBuffer answer = ByteBuffer.allocate(1);
        final Endpoint[] self = new Endpoint[1];
        self[0] = Endpoints.get().open(name, (from, header, payload) -> {
            synchronized (copy) {
                copy.clear().put(payload);
                self[0].send(from, NO_HEADER, answer.clear(), false);
            }
        });
        if (polling) {
            Thread.ofPlatform().daemon().name("endpoint-echo-progress").start(() -> {
                Progress.startSpinning();
                while (true) {
                    Progress.poll();
                    Thread.onSpinWait();
                }
            });
        }
        return self[0].address();
    }
}
