package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;

class TcpTransportTest {
    private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);
    private final List<TcpTransport> transports = new ArrayList<>();

    /** Records what a side's links report. */
    static final class Recorder implements LinkHandler {
        final BlockingQueue<Link> opened = new LinkedBlockingQueue<>();
        final BlockingQueue<byte[]> frames = new LinkedBlockingQueue<>();
        final BlockingQueue<String> closed = new LinkedBlockingQueue<>();

        @Override
        public void opened(final Link link) {
            opened.add(link);
        }

        @Override
        public void received(final Link link, final byte[] frame, final int offset, final int length) {
            frames.add(Arrays.copyOfRange(frame, offset, offset + length));
        }

        @Override
        public void closed(final Link link, final String reason) {
            closed.add(reason);
        }
    }

    private TcpTransport transport(final String id, final byte[] secret, final Duration peerTimeout) {
        final TcpTransport t = new TcpTransport(id, secret,
            new TcpSettings("127.0.0.1", 0, Duration.ofMillis(100), peerTimeout,
            1 << 20));
        transports.add(t);
        return t;
    }

    @AfterEach
    void closeAll() {
        transports.forEach(TcpTransport::close);
    }

    @Test
    void shouldCarryFramesBothWaysAfterProvingTheSecret() throws Exception {
        final Recorder serverSide = new Recorder();
        final Recorder clientSide = new Recorder();
        final TcpTransport server = transport("server", SECRET, Duration.ofSeconds(5));
        final String address = server.listen(serverSide);
        final TcpTransport client = transport("client", SECRET, Duration.ofSeconds(5));
        final Link link = client.connect(address, clientSide, Duration.ofSeconds(5));
        assertEquals("server", link.peerRuntimeId());
        assertEquals(address, link.peerAddress());
        final Link accepted = serverSide.opened.poll(5, TimeUnit.SECONDS);
        assertNotNull(accepted);
        assertEquals("client", accepted.peerRuntimeId());
        final byte[] big = new byte[300_000];
        Arrays.fill(big, (byte) 7);
        link.send(new byte[] {1, 2, 3}, 0, 3, true);
        link.send(big, 0, big.length, false);
        assertArrayEquals(new byte[] {1, 2, 3}, serverSide.frames.poll(5, TimeUnit.SECONDS));
        assertArrayEquals(big, serverSide.frames.poll(5, TimeUnit.SECONDS));
        accepted.send(new byte[] {9}, 0, 1, false);
        assertArrayEquals(new byte[] {9}, clientSide.frames.poll(5, TimeUnit.SECONDS));
        Thread.sleep(400); // several heartbeat intervals: heartbeats are not frames
        assertTrue(serverSide.frames.isEmpty() && clientSide.frames.isEmpty());
        link.close("test over");
        assertEquals("test over", clientSide.closed.poll(5, TimeUnit.SECONDS));
        assertNotNull(serverSide.closed.poll(5, TimeUnit.SECONDS));
        assertFalse(link.isOpen());
        assertThrows(IllegalStateException.class, () -> link.send(new byte[1], 0, 1, false));
    }

    /** A client's link to a new server whose side reports to {@code serverSide}. */
    private Link clientLinkTo(final Recorder serverSide) {
        final String address = transport("server", SECRET, Duration.ofSeconds(5)).listen(serverSide);
        return transport("client", SECRET, Duration.ofSeconds(5))
            .connect(address, new Recorder(), Duration.ofSeconds(5));
    }

    @Test
    void shouldKeepTheOrderOfFramesWrittenDirectlyAndBatched() throws Exception {
        final Recorder serverSide = new Recorder();
        final Link link = clientLinkTo(serverSide);
        final int frames = 3_000;
        for (int i = 0; i < frames; i++) {
            // Every 7th frame is large, so some direct writes find the socket's buffer full and queue the rest.
            final byte[] frame = new byte[i % 7 == 0 ? 200_000 : 8];
            java.nio.ByteBuffer.wrap(frame).putInt(i);
            link.send(frame, 0, frame.length, i % 3 == 0);
        }
        for (int i = 0; i < frames; i++) {
            final byte[] got = serverSide.frames.poll(10, TimeUnit.SECONDS);
            assertNotNull(got, "frame " + i + " never came");
            assertEquals(i, java.nio.ByteBuffer.wrap(got).getInt(), "frames out of order");
            assertEquals(i % 7 == 0 ? 200_000 : 8, got.length);
        }
    }

    /**
     * A peer's first frame can come in the same read as the handshake's last one: the link takes it from the
     * handshake's decoder, and it must not read more than those bytes.
     */
    @Test
    void shouldPassOnAFrameThatCameWithTheLastHandshakeFrame() throws Exception {
        final byte[] payload = {4, 5, 6};
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            final Thread server = Thread.ofVirtual().start(() -> {
                try (Socket s = fake.accept()) {
                    final DataInputStream in = new DataInputStream(s.getInputStream());
                    final DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    final ByteBuffer hello = ByteBuffer.wrap(in.readNBytes(in.readInt()));
                    hello.position(2); // kind, version
                    final byte[] clientNonce = new byte[Handshake.NONCE_BYTES];
                    hello.get(clientNonce);
                    final byte[] clientId = new byte[hello.getShort()];
                    hello.get(clientId);
                    final byte[] serverNonce = Handshake.nonce();
                    final ByteBuffer challenge = ByteBuffer.allocate(256);
                    challenge.putInt(0).put(Handshake.CHALLENGE).put(serverNonce).putShort((short) 4)
                        .put("fake".getBytes(StandardCharsets.UTF_8)).putShort((short) 1).put((byte) '-')
                        .put(new Handshake(SECRET).proof('S', clientNonce, serverNonce,
                            new String(clientId, StandardCharsets.UTF_8), "fake"));
                    challenge.putInt(0, challenge.position() - 4);
                    out.write(challenge.array(), 0, challenge.position());
                    in.readNBytes(in.readInt()); // the client's proof
                    final ByteBuffer acceptedThenFrame = ByteBuffer.allocate(5 + 5 + payload.length);
                    acceptedThenFrame.putInt(1).put(Handshake.ACCEPTED).putInt(payload.length + 1)
                        .put(TcpLink.MESSAGE).put(payload);
                    out.write(acceptedThenFrame.array()); // one write, so most likely one read
                    out.flush();
                    in.read(); // until the client closes
                } catch (java.io.IOException e) {
                    // the client went away: the test says what matters
                }
            });
            final Recorder clientSide = new Recorder();
            final Link link = transport("client", SECRET, Duration.ofSeconds(5))
                .connect("127.0.0.1:" + fake.getLocalPort(), clientSide, Duration.ofSeconds(5));
            assertArrayEquals(payload, clientSide.frames.poll(5, TimeUnit.SECONDS), "closed: " + clientSide.closed);
            assertTrue(link.isOpen(), "the link is still open: " + clientSide.closed);
            link.close("test over");
            server.join(Duration.ofSeconds(5));
        }
    }

    @Test
    void shouldRefuseAPeerWithAnotherSecretEitherWay() throws Exception {
        final Recorder serverSide = new Recorder();
        final String address = transport("server", SECRET, Duration.ofSeconds(5)).listen(serverSide);
        final TcpTransport stranger = transport("stranger", "guess".getBytes(StandardCharsets.UTF_8),
            Duration.ofSeconds(5));
        final IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> stranger.connect(address, new Recorder(), Duration.ofSeconds(5)));
        assertTrue(e.getMessage().contains("secret"), e.getMessage());
        assertTrue(serverSide.opened.isEmpty(), "the server opened no link");
    }

    @Test
    void shouldDropABadPeerBeforeReadingItsMessages() throws Exception {
        final Recorder serverSide = new Recorder();
        final String address = transport("server", SECRET, Duration.ofSeconds(5)).listen(serverSide);
        final int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        try (Socket s = new Socket("127.0.0.1", port)) {
            final DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeInt(100_000_000); // announces a huge frame instead of a hello
            out.write(new byte[64]);
            out.flush();
            s.setSoTimeout(5_000);
            final InputStream in = s.getInputStream();
            assertEquals(-1, in.read(), "the server closed the connection");
        }
        assertTrue(serverSide.opened.isEmpty());
        assertTrue(serverSide.frames.isEmpty());
    }

    @Test
    void shouldKeepAnIdleLinkAliveWithHeartbeatsAndReportItsEnd() throws Exception {
        final Recorder serverSide = new Recorder();
        final TcpTransport server = transport("server", SECRET, Duration.ofMillis(500));
        final String address = server.listen(serverSide);
        final Recorder clientSide = new Recorder();
        final TcpTransport client = transport("client", SECRET, Duration.ofSeconds(30));
        client.connect(address, clientSide, Duration.ofSeconds(5));
        assertNotNull(serverSide.opened.poll(5, TimeUnit.SECONDS));
        Thread.sleep(1_000); // heartbeats keep it open past the timeout
        assertTrue(serverSide.closed.isEmpty(), "heartbeats keep an idle link alive");
        client.close(); // the client's JVM stops answering
        final String reason = serverSide.closed.poll(5, TimeUnit.SECONDS);
        assertNotNull(reason);
    }

    @Test
    void shouldRefuseToSendAFrameThePeerWouldRefuse() {
        final Recorder serverSide = new Recorder();
        final Link link = clientLinkTo(serverSide);
        final byte[] tooBig = new byte[(1 << 20) + 10]; // the test transports accept 1 MiB
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> link.send(tooBig, 0, tooBig.length, false));
        assertTrue(e.getMessage().contains("at most 1048576 are accepted"), e.getMessage());
        assertTrue(link.isOpen(), "a frame refused before it is sent leaves the link as it was");
    }

    @Test
    void shouldCloseALinkWhosePeerAnnouncesAFrameOverTheLimit() throws Exception {
        final Recorder serverSide = new Recorder();
        final String address = transport("server", SECRET, Duration.ofSeconds(5)).listen(serverSide);
        final TcpTransport lax = new TcpTransport("lax", SECRET, new TcpSettings("127.0.0.1", 0,
            Duration.ofMillis(100), Duration.ofSeconds(5), 4 << 20)); // a peer whose own limit is higher
        transports.add(lax);
        final Link link = lax.connect(address, new Recorder(), Duration.ofSeconds(5));
        link.send(new byte[] {1}, 0, 1, false);
        assertArrayEquals(new byte[] {1}, serverSide.frames.poll(5, TimeUnit.SECONDS));
        final byte[] tooBig = new byte[(1 << 20) + 10]; // the server accepts 1 MiB
        link.send(tooBig, 0, tooBig.length, false);
        final String reason = serverSide.closed.poll(5, TimeUnit.SECONDS);
        assertNotNull(reason, "the link is closed");
        assertTrue(reason.contains("at most"), reason);
        assertTrue(serverSide.frames.isEmpty(), "nothing of the oversized frame is handed over");
    }
}
