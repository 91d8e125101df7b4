package org.troupe.bench.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.troupe.core.CoreConfig;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;
import org.troupe.core.transport.tcp.TcpSettings;
import org.troupe.core.transport.tcp.TcpTransport;

/**
 * Two TCP transports in this JVM linked over loopback, with frames tagged or bare: what the frame cases time, so
 * that both settings are measured side by side in one run (a runtime, one per JVM, has one setting). The accepting
 * side answers every frame with one byte, from whichever thread reads it; the sender waits as an endpoint does,
 * spinning and driving progress itself.
 */
final class LinkPair implements AutoCloseable {
    private static final byte[] ONE_BYTE = {1};

    private final TcpTransport server;
    private final TcpTransport client;
    private final Link link;
    private volatile long answers;

    LinkPair(final boolean authenticateFrames) throws Exception {
        final byte[] secret =
                HexFormat.of().formatHex(new SecureRandom().generateSeed(16)).getBytes(StandardCharsets.UTF_8);
        final TcpSettings settings = new TcpSettings(
                "127.0.0.1",
                0,
                Duration.ofMillis(CoreConfig.HEARTBEAT_DEFAULT_MILLIS),
                Duration.ofMillis(CoreConfig.PEER_TIMEOUT_DEFAULT_MILLIS),
                8 << 20,
                authenticateFrames);
        server = new TcpTransport("bench-server", secret, settings);
        client = new TcpTransport("bench-client", secret, settings);
        final CompletableFuture<Link> accepted = new CompletableFuture<>();
        final String address = server.listen(new Handler() {
            @Override
            public void opened(final Link l) {
                accepted.complete(l);
            }

            @Override
            public void received(final Link l, final byte[] frame, final int offset, final int length) {
                l.send(ONE_BYTE, 0, 1, false);
            }
        });
        link = client.connect(
                address,
                "bench-server",
                new Handler() {
                    @Override
                    public void received(final Link l, final byte[] frame, final int offset, final int length) {
                        answers++;
                    }
                },
                Duration.ofSeconds(10));
        accepted.get(10, TimeUnit.SECONDS);
    }

    /** Sends {@code payload} and returns once it is answered. */
    long roundTrip(final ByteBuffer payload) {
        final long expected = answers + 1;
        link.send(ONE_BYTE, 0, payload, false);
        Spinning.until(() -> {
            if (answers >= expected) {
                return true;
            }
            if (!link.isOpen()) {
                throw new IllegalStateException("the benchmark's link closed");
            }
            return false;
        });
        return expected;
    }

    @Override
    public void close() {
        client.close();
        server.close();
    }

    private abstract static class Handler implements LinkHandler {
        @Override
        public void opened(final Link l) {}

        @Override
        public void closed(final Link l, final String reason) {}
    }
}
