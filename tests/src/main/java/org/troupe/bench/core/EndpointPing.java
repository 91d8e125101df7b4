package org.troupe.bench.core;

import java.nio.ByteBuffer;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;

/**
 * The benchmark's side of the endpoint cases: sends a frame and waits for the answer as an MPI rank blocked in a
 * receive does, spinning and driving the transports' progress itself.
 */
final class EndpointPing implements AutoCloseable {
    private static final ByteBuffer NO_HEADER = ByteBuffer.allocate(0);
    private final Endpoint endpoint;
    private volatile long answers;

    EndpointPing(final String name) {
        endpoint = TroupeRuntime.get().endpoints().open(name, (from, header, payload) -> answers++);
    }

    /** Sends {@code payload} to {@code to} and returns once {@code to} has answered it. */
    long roundTrip(final EndpointAddress to, final ByteBuffer payload) {
        final long expected = answers + 1;
        endpoint.send(to, NO_HEADER, payload, false);
        Spinning.until(() -> answers >= expected);
        return expected;
    }

    @Override
    public void close() {
        endpoint.close();
    }
}
