package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.troupe.core.transport.Link;

/**
 * The relay attack on real sockets: a runtime dials an address a stranger holds (a stale address re-bound, a URL
 * the stranger supplied), and the stranger, who does not know the secret, forwards the handshake to a real runtime
 * and then tries to talk on the link it made. With frames authenticated, every frame it injects, replays or alters
 * closes the link before anything is handed on; with bare frames (the setting off) the injection works, which is
 * what the setting's documentation warns of. A dialler that names the runtime it expects gets no link at all.
 */
class RelayTest {
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    /** Long enough that no heartbeat lands between what a test sends and what the relay does to it. */
    private static final Duration HEARTBEAT = Duration.ofSeconds(20);

    private final List<TcpTransport> transports = new ArrayList<>();
    private final List<Relay> relays = new ArrayList<>();

    /** Forwards bytes both ways between the client it accepts and the server; can add to or change the stream. */
    private static final class Relay implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        private final List<Socket> sockets = new ArrayList<>();
        /** Every byte the client sent after the handshake ({@link #mark}), as forwarded. */
        private final ByteArrayOutputStream toServerSinceMark = new ByteArrayOutputStream();

        private boolean marked;
        private OutputStream toServer;
        /** Applied to each chunk the client sends, once marked. */
        private volatile UnaryOperator<byte[]> tamper = UnaryOperator.identity();

        Relay(final int serverPort) throws IOException {
            Thread.ofPlatform().daemon().name("relay").start(() -> {
                try {
                    final Socket client = listener.accept();
                    final Socket server = new Socket(InetAddress.getLoopbackAddress(), serverPort);
                    synchronized (this) {
                        sockets.add(client);
                        sockets.add(server);
                        toServer = server.getOutputStream();
                    }
                    pump(server.getInputStream(), client.getOutputStream(), false);
                    pump(client.getInputStream(), toServer, true);
                } catch (IOException closed) {
                    // the test is over
                }
            });
        }

        String address() {
            return "127.0.0.1:" + listener.getLocalPort();
        }

        private void pump(final InputStream in, final OutputStream out, final boolean fromClient) {
            Thread.ofPlatform().daemon().name("relay-pump").start(() -> {
                final byte[] buffer = new byte[65536];
                try {
                    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                        byte[] chunk = Arrays.copyOf(buffer, n);
                        synchronized (this) {
                            if (fromClient && marked) {
                                chunk = tamper.apply(chunk);
                                toServerSinceMark.writeBytes(chunk);
                            }
                            out.write(chunk);
                            out.flush();
                        }
                    }
                } catch (IOException closed) {
                    // either side hung up
                }
                hangUp(); // as a proxy does: one side gone, the other is told
            });
        }

        private synchronized void hangUp() {
            for (final Socket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }

        /** From now on, the client's bytes are recorded (and tampered with). */
        synchronized void mark() {
            marked = true;
        }

        synchronized byte[] sentSinceMark() {
            return toServerSinceMark.toByteArray();
        }

        /** Sends {@code bytes} to the server as if the client had. */
        synchronized void inject(final byte[] bytes) throws IOException {
            toServer.write(bytes);
            toServer.flush();
        }

        @Override
        public void close() throws IOException {
            listener.close();
            hangUp();
        }
    }

    private TcpTransport transport(final String id, final boolean authenticateFrames) {
        final TcpTransport t = new TcpTransport(
                id,
                SECRET,
                new TcpSettings("127.0.0.1", 0, HEARTBEAT, HEARTBEAT.multipliedBy(2), 8 << 20, authenticateFrames));
        transports.add(t);
        return t;
    }

    @AfterEach
    void closeAll() throws IOException {
        for (final Relay r : relays) {
            r.close();
        }
        transports.forEach(TcpTransport::close);
    }

    /** A link from "client" to "server" through a relay, which starts recording once a first frame went through. */
    private record Relayed(Relay relay, Link link, TcpTransportTest.Recorder server) {}

    private Relayed relayed(final boolean authenticateFrames) throws Exception {
        final TcpTransportTest.Recorder serverSide = new TcpTransportTest.Recorder();
        final String address = transport("server", authenticateFrames).listen(serverSide);
        final Relay relay = new Relay(Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
        relays.add(relay);
        final Link link = transport("client", authenticateFrames)
                .connect(relay.address(), "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        assertNotNull(serverSide.opened.poll(5, TimeUnit.SECONDS), "the server linked the client");
        relay.mark();
        return new Relayed(relay, link, serverSide);
    }

    private static byte[] bytes(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A message frame as the relay would forge it: length, kind, payload, and a tag it can only guess. */
    private static byte[] forged(final byte[] payload, final int tagBytes) {
        return ByteBuffer.allocate(5 + payload.length + tagBytes)
                .putInt(1 + payload.length + tagBytes)
                .put(FrameDescriptor.MESSAGE)
                .put(payload)
                .array();
    }

    @ParameterizedTest(name = "frames authenticated: {0}")
    @ValueSource(booleans = {true, false})
    void shouldHandOnAnInjectedFrameOnlyWhenFramesAreBare(final boolean authenticateFrames) throws Exception {
        final Relayed r = relayed(authenticateFrames);
        r.link().send(bytes("call"), 0, 4, false);
        assertArrayEquals(bytes("call"), r.server().frames.poll(5, TimeUnit.SECONDS));
        r.relay().inject(forged(bytes("TERMINATE everything"), authenticateFrames ? FrameMac.TAG_BYTES : 0));
        if (authenticateFrames) {
            final String reason = r.server().closed.poll(5, TimeUnit.SECONDS);
            assertNotNull(reason, "the server closed the link");
            assertTrue(reason.contains("failed its authentication"), reason);
            assertNull(r.server().frames.poll(), "nothing injected was handed on");
            try {
                r.link().send(bytes("genuine"), 0, 7, false); // the client's own next frame, tagged in sequence
            } catch (IllegalStateException closed) {
                // the client heard of the close first
            }
            assertNull(r.server().frames.poll(200, TimeUnit.MILLISECONDS), "nor anything after it");
        } else {
            assertArrayEquals(
                    bytes("TERMINATE everything"),
                    r.server().frames.poll(5, TimeUnit.SECONDS),
                    "bare frames: the relay talks as the client");
        }
    }

    @Test
    void shouldCloseTheLinkOnAReplayedFrame() throws Exception {
        final Relayed r = relayed(true);
        r.link().send(bytes("transfer 100"), 0, 12, false);
        assertArrayEquals(bytes("transfer 100"), r.server().frames.poll(5, TimeUnit.SECONDS));
        r.relay().inject(r.relay().sentSinceMark());
        assertNotNull(r.server().closed.poll(5, TimeUnit.SECONDS), "the server closed the link");
        assertNull(r.server().frames.poll(), "the replay was not handed on");
    }

    /** A small frame, and a large one checked as it arrives: one altered byte at its start is enough. */
    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {5, 3 << 20})
    void shouldCloseTheLinkOnAnAlteredFrame(final int size) throws Exception {
        final Relayed r = relayed(true);
        final boolean[] altered = {false};
        r.relay().tamper = chunk -> {
            if (altered[0]) {
                return chunk;
            }
            altered[0] = true;
            final byte[] copy = chunk.clone();
            copy[5] ^= 1; // the payload's first byte
            return copy;
        };
        final byte[] payload = new byte[size];
        r.link().send(payload, 0, size, false);
        assertNotNull(r.server().closed.poll(10, TimeUnit.SECONDS), "the server closed the link");
        assertNull(r.server().frames.poll(), "the altered frame was not handed on");
    }

    /**
     * Frames, small and large (the large checked as they arrive, in whatever pieces the relay forwards), keep
     * flowing through a relay that only forwards: it is a wire, nothing more.
     */
    @Test
    void shouldServeThroughARelayThatOnlyForwards() throws Exception {
        final Relayed r = relayed(true);
        final byte[] large = new byte[(3 << 20) + 12_345];
        new Random(7).nextBytes(large);
        final ByteBuffer largeTail =
                ByteBuffer.allocateDirect(large.length).put(large).flip();
        final byte[] head = bytes("head");
        final byte[] headAndTail = ByteBuffer.allocate(head.length + large.length)
                .put(head)
                .put(large)
                .array();
        for (int i = 0; i < 100; i++) {
            if (i % 10 == 7) { // a head and a direct tail, as an endpoint's frame
                r.link().send(head, head.length, largeTail, false);
                continue;
            }
            final byte[] payload = i % 10 == 5 ? large : bytes("frame " + i);
            r.link().send(payload, 0, payload.length, i % 3 == 0);
        }
        for (int i = 0; i < 100; i++) {
            final byte[] received = r.server().frames.poll(10, TimeUnit.SECONDS);
            assertNotNull(
                    received, "frame " + i + "; closed: " + r.server().closed.peek());
            if (i % 10 == 5) {
                assertArrayEquals(large, received, "large frame " + i);
            } else if (i % 10 == 7) {
                assertArrayEquals(headAndTail, received, "large frame " + i);
            } else {
                assertEquals("frame " + i, new String(received, StandardCharsets.UTF_8));
            }
        }
        assertTrue(r.link().isOpen());
    }

    /**
     * A stranger holding an address a runtime dials, naming no runtime, plays the handshake back to that runtime's own
     * port: the runtime refuses to link to itself, on both sides.
     */
    @Test
    void shouldRefuseALinkToItselfThroughARelay() throws Exception {
        final TcpTransportTest.Recorder accepted = new TcpTransportTest.Recorder();
        final TcpTransport self = transport("self", true);
        final String address = self.listen(accepted);
        final Relay relay = new Relay(Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
        relays.add(relay);
        final IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> self.connect(relay.address(), "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5)));
        assertTrue(e.getMessage().contains("this runtime itself"), e.getMessage());
        assertNull(accepted.opened.poll(200, TimeUnit.MILLISECONDS), "no link was opened to itself");
    }

    /** A dialler that names the runtime it expects gets no link when another answers, relayed or not. */
    @Test
    void shouldRefuseALinkToAnotherRuntimeThanTheOneExpected() throws Exception {
        final TcpTransportTest.Recorder serverSide = new TcpTransportTest.Recorder();
        final String address = transport("server", true).listen(serverSide);
        final Relay relay = new Relay(Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
        relays.add(relay);
        final IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> transport("client", true)
                        .connect(
                                relay.address(), "stale-node", new TcpTransportTest.Recorder(), Duration.ofSeconds(5)));
        assertTrue(e.getMessage().contains("not the runtime expected at that address"), e.getMessage());
        assertFalse(serverSide.opened.poll(200, TimeUnit.MILLISECONDS) != null, "the server linked nobody");
    }
}
