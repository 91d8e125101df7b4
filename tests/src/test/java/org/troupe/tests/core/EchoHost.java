package org.troupe.tests.core;

import java.nio.ByteBuffer;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;

/** Opens, in the JVM it lives in, an endpoint that sends every frame back to its sender, header and payload. */
public class EchoHost {
    private Endpoint echo;

    public EchoHost() {}

    public EndpointAddress open(final String name) {
        final Endpoint[] self = new Endpoint[1];
        echo = TroupeRuntime.get().endpoints().open(name, (from, header, payload) -> {
            // Copied, as a receiver must: the views die with this call, and the echo may be sent after it.
            final ByteBuffer h =
                    ByteBuffer.allocate(header.remaining()).put(header).flip();
            final ByteBuffer p =
                    ByteBuffer.allocate(payload.remaining()).put(payload).flip();
            self[0].send(from, h, p, false);
        });
        self[0] = echo;
        return echo.address();
    }
}
