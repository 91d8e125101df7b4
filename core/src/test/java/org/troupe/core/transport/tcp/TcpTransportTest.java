package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.CoreConfig;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;
import org.troupe.core.transport.ReceiveBudget;

class TcpTransportTest {
    private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);
    private final List<TcpTransport> transports = new ArrayList<>();

    /** Records what a side's links report. */
    static class Recorder implements LinkHandler {
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

    /**
     * A server written with plain sockets, to see and send the exact bytes: it accepts one connection, answers its
     * hello and proof as a runtime knowing {@link #SECRET} would, with frames bare (no tags: {@link #bare}), and
     * accepts it.
     */
    private static final class RawPeer implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        private final CompletableFuture<Socket> accepted = new CompletableFuture<>();
        private Socket socket;
        private DataInputStream in;
        private DataOutputStream out;

        RawPeer() throws IOException {}

        /** A link frame: its length, its kind, its payload. */
        static byte[] frame(final byte kind, final byte[] payload) {
            return ByteBuffer.allocate(FrameDescriptor.frameLength(payload.length, 0))
                    .putInt(FrameDescriptor.lengthField(payload.length, 0))
                    .put(kind)
                    .put(payload)
                    .array();
        }

        /**
         * Starts answering on another thread, the caller being busy connecting; {@code afterAcceptance} goes out
         * in the same write as the acceptance. Returns the address to connect to.
         */
        String answer(final byte[] afterAcceptance) {
            Thread.ofVirtual().start(() -> {
                try {
                    accepted.complete(handshake(afterAcceptance));
                } catch (Throwable e) {
                    accepted.completeExceptionally(e);
                }
            });
            return "127.0.0.1:" + listener.getLocalPort();
        }

        private Socket handshake(final byte[] afterAcceptance) throws IOException {
            final Socket s = listener.accept();
            final DataInputStream input = new DataInputStream(s.getInputStream());
            final DataOutputStream output = new DataOutputStream(s.getOutputStream());
            final ByteBuffer hello = ByteBuffer.wrap(input.readNBytes(input.readInt()));
            hello.position(3); // kind, version, settings
            final byte[] clientNonce = new byte[Handshake.NONCE_BYTES];
            hello.get(clientNonce);
            final byte[] serverNonce = Handshake.nonce();
            final ByteBuffer challenge = ByteBuffer.allocate(4 + 2 + Handshake.NONCE_BYTES);
            challenge
                    .putInt(2 + Handshake.NONCE_BYTES)
                    .put(Handshake.CHALLENGE)
                    .put((byte) 0)
                    .put(serverNonce);
            output.write(challenge.array());
            input.readNBytes(input.readInt()); // the client's proof
            final ByteBuffer acceptance = ByteBuffer.allocate(256 + afterAcceptance.length);
            acceptance
                    .putInt(0)
                    .put(Handshake.ACCEPTED)
                    .putShort((short) 4)
                    .put("fake".getBytes(StandardCharsets.UTF_8))
                    .putShort((short) 1)
                    .put((byte) '-')
                    .put(new Handshake(SECRET).proof('S', clientNonce, serverNonce, (byte) 0, (byte) 0, "fake", "-"));
            acceptance.putInt(0, acceptance.position() - 4).put(afterAcceptance);
            output.write(acceptance.array(), 0, acceptance.position()); // one write, so most likely one read
            output.flush();
            input.readNBytes(input.readInt()); // the client's identity
            return s;
        }

        /** Waits for the handshake's end (the client has its link by then), to read and write frames. */
        void linked() throws Exception {
            socket = accepted.get(5, TimeUnit.SECONDS);
            socket.setSoTimeout(5_000);
            in = new DataInputStream(socket.getInputStream());
            out = new DataOutputStream(socket.getOutputStream());
        }

        /** The next frame: its kind, then its payload. */
        byte[] readFrame() throws IOException {
            return in.readNBytes(in.readInt());
        }

        void write(final byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        @Override
        public void close() throws Exception {
            listener.close();
            final Socket s = accepted.isDone() && !accepted.isCompletedExceptionally() ? accepted.join() : null;
            if (s != null) {
                s.close();
            }
        }
    }

    private TcpTransport transport(final String id, final byte[] secret, final Duration peerTimeout) {
        final TcpTransport t = new TcpTransport(
                id, secret, new TcpSettings("127.0.0.1", 0, Duration.ofMillis(100), peerTimeout, 1 << 20));
        transports.add(t);
        return t;
    }

    /** A transport whose links send bare frames, as {@link RawPeer} does. */
    private TcpTransport bare(final String id, final Duration peerTimeout) {
        final TcpTransport t = new TcpTransport(
                id, SECRET, new TcpSettings("127.0.0.1", 0, Duration.ofMillis(100), peerTimeout, 1 << 20, false));
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
        final Link link = client.connect(address, "", clientSide, Duration.ofSeconds(5));
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
        link.close("test over");
        assertEquals("test over", clientSide.closed.poll(5, TimeUnit.SECONDS));
        final String serverReason = serverSide.closed.poll(5, TimeUnit.SECONDS);
        assertTrue(serverReason != null && serverReason.contains("connection closed"), serverReason);
        assertFalse(link.isOpen());
        assertThrows(IllegalStateException.class, () -> link.send(new byte[1], 0, 1, false));
    }

    /** A client's link to a new server whose side reports to {@code serverSide}. */
    private Link clientLinkTo(final Recorder serverSide) {
        final String address =
                transport("server", SECRET, Duration.ofSeconds(5)).listen(serverSide);
        return transport("client", SECRET, Duration.ofSeconds(5))
                .connect(address, "", new Recorder(), Duration.ofSeconds(5));
    }

    @Test
    void shouldKeepTheOrderOfFramesWrittenDirectlyAndBatched() throws Exception {
        final Recorder serverSide = new Recorder();
        final Link link = clientLinkTo(serverSide);
        final int frames = 3_000;
        for (int i = 0; i < frames; i++) {
            // Every 7th frame is large, so some direct writes find the socket's buffer full and queue the rest.
            final byte[] frame = new byte[i % 7 == 0 ? 200_000 : 8];
            ByteBuffer.wrap(frame).putInt(i);
            link.send(frame, 0, frame.length, i % 3 == 0);
        }
        for (int i = 0; i < frames; i++) {
            final byte[] got = serverSide.frames.poll(10, TimeUnit.SECONDS);
            assertNotNull(got, "frame " + i + " never came");
            assertEquals(i, ByteBuffer.wrap(got).getInt(), "frames out of order");
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
        try (RawPeer peer = new RawPeer()) {
            final String address = peer.answer(RawPeer.frame(FrameDescriptor.MESSAGE, payload));
            final Recorder clientSide = new Recorder();
            final Link link =
                    bare("client", Duration.ofSeconds(5)).connect(address, "", clientSide, Duration.ofSeconds(5));
            assertArrayEquals(payload, clientSide.frames.poll(5, TimeUnit.SECONDS), "closed: " + clientSide.closed);
            assertTrue(link.isOpen(), "the link is still open: " + clientSide.closed);
            link.close("test over");
        }
    }

    /**
     * Whichever side has the other secret, the server finds the client's proof wrong and hangs up: it proves
     * nothing to a stranger, and the client learns only that the secret (or the runtime) differs.
     */
    @Test
    void shouldRefuseAPeerWithAnotherSecretEitherWay() throws Exception {
        final byte[] guess = "guess".getBytes(StandardCharsets.UTF_8);
        for (final boolean strangerConnects : new boolean[] {true, false}) {
            final Recorder serverSide = new Recorder();
            final String address = transport("server", strangerConnects ? SECRET : guess, Duration.ofSeconds(5))
                    .listen(serverSide);
            final TcpTransport client = transport("client", strangerConnects ? guess : SECRET, Duration.ofSeconds(5));
            final IllegalStateException e = assertThrows(
                    IllegalStateException.class,
                    () -> client.connect(address, "", new Recorder(), Duration.ofSeconds(5)));
            assertTrue(e.getMessage().contains("a different deployment secret"), e.getMessage());
            assertTrue(serverSide.opened.isEmpty(), "the server opened no link");
        }
    }

    @Test
    void shouldDropABadPeerBeforeReadingItsMessages() throws Exception {
        final Recorder serverSide = new Recorder();
        final String address =
                transport("server", SECRET, Duration.ofSeconds(5)).listen(serverSide);
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

    /**
     * A stranger without the secret holds every handshake slot with silent connections, and opens more as the
     * runtime drops them: a runtime with the secret still links at once, each time, since the oldest unproven
     * connection is dropped for the newest (told why in a frame of its own, then closed).
     */
    @Test
    void aStrangerHoldingEveryHandshakeSlotCannotKeepARuntimeWithTheSecretOut() throws Exception {
        final Recorder serverSide = new Recorder();
        final String address =
                transport("server", SECRET, Duration.ofSeconds(5)).listen(serverSide);
        final int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        final List<Socket> idle = new ArrayList<>();
        final TcpTransport client = transport("client", SECRET, Duration.ofSeconds(5));
        try {
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < TcpTransport.MAX_UNAUTHENTICATED; i++) {
                    idle.add(new Socket("127.0.0.1", port)); // connected, silent: each holds a handshake open
                }
                final Link link = client.connect(address, "", new Recorder(), Duration.ofSeconds(5));
                assertEquals("server", link.peerRuntimeId(), "round " + round);
            }
            final Socket oldest = idle.getFirst();
            oldest.setSoTimeout(5_000);
            final DataInputStream in = new DataInputStream(oldest.getInputStream());
            assertEquals(1, in.readInt(), "a frame of one byte");
            assertEquals(Handshake.BUSY, in.readByte(), "saying it was dropped for a newer connection");
            assertEquals(-1, in.read(), "then the connection closes");
        } finally {
            for (final Socket s : idle) {
                s.close();
            }
        }
    }

    /**
     * Frames arriving on several links at once are bounded in sum ({@link ReceiveBudget}), not only each by the
     * message size: once a link holds room for a large frame, another link whose frame would pass the bound is
     * closed, saying why; the first still serves.
     */
    @Test
    void framesArrivingOnSeveralLinksAreBoundedInSum() throws Exception {
        final long before = ReceiveBudget.limit();
        ReceiveBudget.limit(ReceiveBudget.held() + (4 << 20));
        try {
            final Recorder serverSide = new Recorder();
            final TcpSettings large =
                    new TcpSettings("127.0.0.1", 0, Duration.ofMillis(100), Duration.ofSeconds(5), 8 << 20);
            final String address =
                    added(new TcpTransport("server", SECRET, large)).listen(serverSide);
            final Link first = added(new TcpTransport("client", SECRET, large))
                    .connect(address, "", new Recorder(), Duration.ofSeconds(5));
            final Link second = added(new TcpTransport("other", SECRET, large))
                    .connect(address, "", new Recorder(), Duration.ofSeconds(5));
            final byte[] threeMib = new byte[3 << 20];
            first.send(threeMib, 0, threeMib.length, false);
            assertEquals(threeMib.length, serverSide.frames.poll(10, TimeUnit.SECONDS).length);
            try {
                second.send(threeMib, 0, threeMib.length, false);
            } catch (IllegalStateException closedMidWrite) {
                // the server closed the link while its frame was being written: the outcome sought
            }
            final String reason = serverSide.closed.poll(10, TimeUnit.SECONDS);
            assertNotNull(reason, "the second link was closed");
            assertTrue(reason.contains(CoreConfig.MAX_RECEIVING_BYTES_PROP_NAME), reason);
            first.send(new byte[] {7}, 0, 1, false);
            assertArrayEquals(new byte[] {7}, serverSide.frames.poll(10, TimeUnit.SECONDS), "the first still serves");
        } finally {
            ReceiveBudget.limit(before);
        }
    }

    private TcpTransport added(final TcpTransport t) {
        transports.add(t);
        return t;
    }

    /** A dialler that a busy runtime drops says so, not that the secret may differ. */
    @Test
    void aDiallerDroppedByABusyRuntimeSaysSo() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try (Socket s = busy.accept()) {
                    s.getOutputStream().write(RawPeer.frame(Handshake.BUSY, new byte[0]));
                    s.getInputStream().read();
                } catch (IOException e) {
                    // the dialler hung up
                }
            });
            final IllegalStateException e = assertThrows(
                    IllegalStateException.class,
                    () -> transport("client", SECRET, Duration.ofSeconds(5))
                            .connect("127.0.0.1:" + busy.getLocalPort(), "", new Recorder(), Duration.ofSeconds(5)));
            assertTrue(
                    e.getMessage().contains("dropped this connection for a newer one")
                            && !e.getMessage().contains("secret differ"),
                    e.getMessage());
        }
    }

    @Test
    void shouldGiveAFrameRoomAsItsBytesArriveNotWhenItsLengthDoes() throws Exception {
        try (RawPeer peer = new RawPeer()) {
            final String address = peer.answer(new byte[0]);
            final TcpLink link = (TcpLink)
                    bare("client", Duration.ofSeconds(30)).connect(address, "", new Recorder(), Duration.ofSeconds(5));
            peer.linked();
            final int announced = (1 << 20) - 16; // as large as the link accepts
            final ByteBuffer start =
                    ByteBuffer.allocate(4 + 1 + 100_000).putInt(announced).put(FrameDescriptor.MESSAGE);
            peer.write(start.array()); // 100 kB of a frame said to hold 1 MiB
            final long deadline = System.nanoTime() + 5_000_000_000L;
            while (link.inboundCapacity() < 100_000 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(100); // whatever the link would allocate for the rest of the frame, it has by now
            final int room = link.inboundCapacity();
            assertTrue(room >= 100_000 && room <= 256 << 10, "room for the bytes that came, not for 1 MiB: " + room);
            assertTrue(link.isOpen());
        }
    }

    @Test
    void shouldSendHeartbeatsOnAnIdleLink() throws Exception {
        try (RawPeer peer = new RawPeer()) {
            final String address = peer.answer(new byte[0]);
            bare("client", Duration.ofSeconds(30)).connect(address, "", new Recorder(), Duration.ofSeconds(5));
            peer.linked();
            for (int i = 0; i < 3; i++) { // nothing is sent on this link but heartbeats
                assertArrayEquals(new byte[] {FrameDescriptor.PING}, peer.readFrame(), "frame " + i);
            }
        }
    }

    /**
     * A frame's handler runs for two peer timeouts and more on the server's event loop, which reads (and, before, sent
     * the heartbeats of) other links too: no link is closed, on either side. Heartbeats leave from a timer thread
     * of their own, and a link is declared silent only after its socket was read.
     */
    @Test
    void shouldKeepEveryLinkOpenThroughAHandlerThatRunsLong() throws Exception {
        final Recorder serverSide = new Recorder() {
            @Override
            public void received(final Link link, final byte[] frame, final int offset, final int length) {
                if (new String(frame, offset, length, StandardCharsets.UTF_8).equals("sleep")) {
                    try {
                        Thread.sleep(1_000); // more than twice the peer timeout
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                super.received(link, frame, offset, length);
            }
        };
        final String address =
                transport("server", SECRET, Duration.ofMillis(400)).listen(serverSide);
        final List<Recorder> clients = new ArrayList<>();
        final List<Link> links = new ArrayList<>();
        for (int i = 0; i < 4; i++) { // the server's two event loops take two each
            final Recorder r = new Recorder();
            clients.add(r);
            links.add(transport("client" + i, SECRET, Duration.ofMillis(400))
                    .connect(address, "", r, Duration.ofSeconds(5)));
        }
        links.get(0).send("sleep".getBytes(StandardCharsets.UTF_8), 0, 5, false);
        Thread.sleep(1_700);
        for (int i = 0; i < 4; i++) {
            assertTrue(links.get(i).isOpen(), "client " + i + " kept its link: " + clients.get(i).closed);
            links.get(i).send(new byte[] {(byte) i}, 0, 1, false);
        }
        assertEquals("sleep", new String(serverSide.frames.poll(5, TimeUnit.SECONDS), StandardCharsets.UTF_8));
        for (int i = 0; i < 4; i++) {
            assertNotNull(serverSide.frames.poll(5, TimeUnit.SECONDS), "a frame from each client after the wait");
        }
        assertTrue(serverSide.closed.isEmpty(), "the server closed no link: " + serverSide.closed);
    }

    /**
     * The peer sends nothing but heartbeats for several peer timeouts, then a message, then falls silent: the
     * heartbeats keep the link open and are not handed on, and the silence closes it, saying so.
     */
    @Test
    void shouldKeepALinkAliveWithHeartbeatsAndCloseItWhenThePeerFallsSilent() throws Exception {
        final Duration peerTimeout = Duration.ofMillis(600);
        try (RawPeer peer = new RawPeer()) {
            final String address = peer.answer(new byte[0]);
            final Recorder clientSide = new Recorder();
            final Link link = bare("client", peerTimeout).connect(address, "", clientSide, Duration.ofSeconds(5));
            peer.linked();
            final long until = System.nanoTime() + 3 * peerTimeout.toNanos();
            while (System.nanoTime() < until) {
                peer.write(RawPeer.frame(FrameDescriptor.PING, new byte[0]));
                Thread.sleep(50);
            }
            peer.write(RawPeer.frame(FrameDescriptor.MESSAGE, new byte[] {7}));
            assertArrayEquals(
                    new byte[] {7},
                    clientSide.frames.poll(5, TimeUnit.SECONDS),
                    "the message, and no heartbeat, is the first frame handed on");
            assertTrue(
                    clientSide.closed.isEmpty() && link.isOpen(),
                    "open after three peer timeouts: " + clientSide.closed);
            final String reason = clientSide.closed.poll(5, TimeUnit.SECONDS);
            assertTrue(reason != null && reason.contains("nothing heard") && reason.contains("600 ms"), reason);
            assertFalse(link.isOpen());
            final IllegalStateException e =
                    assertThrows(IllegalStateException.class, () -> link.send(new byte[1], 0, 1, false));
            assertTrue(e.getMessage().contains(reason), e.getMessage());
        }
    }

    @Test
    void shouldRefuseToSendAFrameThePeerWouldRefuse() {
        final Recorder serverSide = new Recorder();
        final Link link = clientLinkTo(serverSide);
        final byte[] tooBig = new byte[(1 << 20) + 10]; // the test transports accept 1 MiB
        final IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> link.send(tooBig, 0, tooBig.length, false));
        assertTrue(e.getMessage().contains("at most 1048576 are accepted"), e.getMessage());
        assertTrue(link.isOpen(), "a frame refused before it is sent leaves the link as it was");
    }

    @Test
    void shouldCloseALinkWhosePeerAnnouncesAFrameOverTheLimit() throws Exception {
        final Recorder serverSide = new Recorder();
        final String address =
                transport("server", SECRET, Duration.ofSeconds(5)).listen(serverSide);
        final TcpTransport lax = new TcpTransport(
                "lax",
                SECRET,
                new TcpSettings(
                        "127.0.0.1",
                        0,
                        Duration.ofMillis(100),
                        Duration.ofSeconds(5),
                        4 << 20)); // a peer whose own limit is higher
        transports.add(lax);
        final Link link = lax.connect(address, "", new Recorder(), Duration.ofSeconds(5));
        link.send(new byte[] {1}, 0, 1, false);
        assertArrayEquals(new byte[] {1}, serverSide.frames.poll(5, TimeUnit.SECONDS));
        final byte[] tooBig = new byte[(1 << 20) + 10]; // the server accepts 1 MiB
        try {
            link.send(tooBig, 0, tooBig.length, false);
        } catch (IllegalStateException closedWhileSending) { // the server may close before the frame is out
            assertTrue(closedWhileSending.getMessage().contains("failed"), closedWhileSending.getMessage());
        }
        final String reason = serverSide.closed.poll(5, TimeUnit.SECONDS);
        assertNotNull(reason, "the link is closed");
        assertTrue(reason.contains("at most"), reason);
        assertTrue(serverSide.frames.isEmpty(), "nothing of the oversized frame is handed over");
    }

    /**
     * A peer asks something (a frame the handler answers on the same link, as a lookup or an endpoint echo is
     * answered), then freezes: it stops reading and sends nothing more, not even heartbeats (a stopped or paused
     * JVM, a host gone off the network). A large frame being written to it cannot finish; the link must still be
     * closed for the peer's silence, and the writer fail, rather than wait for ever.
     */
    @Test
    void shouldGiveUpALargeWriteToAPeerThatFroze() throws Exception {
        final Duration peerTimeout = Duration.ofMillis(600);
        try (RawPeer peer = new RawPeer()) {
            final String address = peer.answer(new byte[0]);
            final BlockingQueue<String> closed = new LinkedBlockingQueue<>();
            final Link link = bare("client", peerTimeout)
                    .connect(
                            address,
                            "",
                            new LinkHandler() {
                                @Override
                                public void opened(final Link l) {}

                                @Override
                                public void received(
                                        final Link l, final byte[] frame, final int offset, final int length) {
                                    l.send(new byte[] {8}, 0, 1, false); // the answer
                                }

                                @Override
                                public void closed(final Link l, final String reason) {
                                    closed.add(reason);
                                }
                            },
                            Duration.ofSeconds(5));
            peer.linked();
            final CompletableFuture<Throwable> writer = new CompletableFuture<>();
            final Thread w = Thread.ofPlatform().daemon().name("large-writer").start(() -> {
                try {
                    final byte[] large = new byte[1 << 20]; // over the size written a chunk at a time
                    for (int i = 0; i < 64; i++) {
                        link.send(large, 0, large.length, false);
                    }
                    writer.complete(null);
                } catch (Throwable e) {
                    writer.complete(e);
                }
            });
            final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            int stuck = 0; // checks in a row that found a large frame being written: the socket is full
            while (stuck < 10 && System.nanoTime() < until) { // alive until then
                peer.write(RawPeer.frame(FrameDescriptor.PING, new byte[0]));
                Thread.sleep(20);
                stuck = ((TcpLink) link).outbound().writingLarge() ? stuck + 1 : 0;
            }
            assertTrue(stuck >= 10, "the writer waits for room");
            peer.write(RawPeer.frame(FrameDescriptor.MESSAGE, new byte[] {7})); // the question; then the peer freezes
            w.join(Duration.ofSeconds(20));
            assertTrue(
                    writer.isDone(),
                    "the writer still waits, 20 s after a peer that should time out in " + peerTimeout.toMillis()
                            + " ms fell silent (link closed: " + closed + ")");
            assertInstanceOf(IllegalStateException.class, writer.get());
        }
    }

    /**
     * A frame whose head and payload together pass 2 GiB: their sum, an int, turns negative and passes the size
     * check. Batched, the frame's length (negative) and head are queued before its payload fails to fit, and the
     * next frame leaves behind them: the peer reads a frame of a negative length and drops the link. The frame
     * must be refused as too large, and the link left as it was.
     */
    @Test
    void shouldRefuseAFrameOverTwoGibibytesAndKeepTheLink() throws Exception {
        final Recorder serverSide = new Recorder();
        final Link link = clientLinkTo(serverSide);
        final Path file = Files.createTempFile("troupe-sparse", ".bin");
        final RuntimeException refused;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(Integer.MAX_VALUE); // sparse: no disk, and mapped without memory
            final ByteBuffer payload = raf.getChannel().map(FileChannel.MapMode.READ_ONLY, 0, Integer.MAX_VALUE - 100);
            final byte[] head = new byte[200];
            refused = assertThrows(RuntimeException.class, () -> link.send(head, head.length, payload, true));
        } finally {
            Files.deleteIfExists(file);
        }
        link.send(new byte[] {5}, 0, 1, false);
        assertArrayEquals(
                new byte[] {5},
                serverSide.frames.poll(5, TimeUnit.SECONDS),
                () -> "the next frame, after " + refused + " (the server closed the link: " + serverSide.closed.peek()
                        + ")");
        assertTrue(link.isOpen());
        assertInstanceOf(IllegalArgumentException.class, refused, "refused for its size: " + refused);
    }

    /**
     * A frame queued behind others (batched, or sent while others wait) is copied into the queue after its length
     * and head: when the copy of its payload fails (here a mapped file cut short under it; in practice mostly an
     * OutOfMemoryError of direct memory, as a large frame that finds others queued is queued whole), its length and
     * head stay queued, and the peer takes the frames that follow for the rest of it: it hands them to nobody and
     * waits for ever for the rest, hearing bytes all along (heartbeats are frames too), so the link never closes.
     * The failed frame must leave nothing behind.
     */
    @Test
    void shouldLeaveNothingQueuedOfAFrameWhosePayloadCannotBeCopied() throws Exception {
        final Recorder serverSide = new Recorder();
        final Link link = clientLinkTo(serverSide);
        final Path file = Files.createTempFile("troupe-cut", ".bin");
        final Throwable failed;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(100_000));
            final ByteBuffer payload = ch.map(FileChannel.MapMode.READ_ONLY, 0, 100_000);
            ch.truncate(0); // the pages under the mapping are gone: reading them faults
            final byte[] head = {1, 2, 3};
            Throwable t = null;
            try {
                link.send(head, head.length, payload, true);
            } catch (Throwable e) {
                t = e;
            }
            failed = t;
        } finally {
            Files.deleteIfExists(file);
        }
        link.send(new byte[] {5}, 0, 1, false);
        assertArrayEquals(
                new byte[] {5},
                serverSide.frames.poll(5, TimeUnit.SECONDS),
                "the next frame, after the" + " send that failed with " + failed + " (the server closed the link: "
                        + serverSide.closed + ")");
    }

    /**
     * As above, for a large frame written from the sender's thread a megabyte at a time: when its payload cannot
     * be read half-way through, half of it is on the wire already. The link must then close, rather than let the
     * peer take the next frames for the rest of that one.
     */
    @Test
    void shouldCloseTheLinkWhenALargeFrameFailsHalfWritten() throws Exception {
        final Recorder serverSide = new Recorder();
        final TcpTransport server = new TcpTransport(
                "server",
                SECRET,
                new TcpSettings("127.0.0.1", 0, Duration.ofMillis(100), Duration.ofSeconds(5), 16 << 20));
        transports.add(server);
        final String address = server.listen(serverSide);
        final TcpTransport big = new TcpTransport(
                "big",
                SECRET,
                new TcpSettings("127.0.0.1", 0, Duration.ofMillis(100), Duration.ofSeconds(5), 16 << 20));
        transports.add(big);
        final Link link = big.connect(address, "", new Recorder(), Duration.ofSeconds(5));
        final Path file = Files.createTempFile("troupe-cut", ".bin");
        final Throwable failed;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(8 << 20));
            final ByteBuffer payload = ch.map(FileChannel.MapMode.READ_ONLY, 0, 8 << 20);
            ch.truncate(3 << 20); // the pages past 3 MiB are gone: reading them faults
            final byte[] head = {1, 2, 3};
            Throwable t = null;
            try {
                link.send(head, head.length, payload, false);
            } catch (Throwable e) {
                t = e;
            }
            failed = t;
        } finally {
            Files.deleteIfExists(file);
        }
        try {
            link.send(new byte[] {5}, 0, 1, false);
        } catch (IllegalStateException closed) {
            // closed: what should be
        }
        byte[] next = null;
        String reason = null;
        for (long end = System.nanoTime() + 5_000_000_000L;
                next == null && reason == null && System.nanoTime() < end; ) { // whichever comes first
            reason = serverSide.closed.poll(10, TimeUnit.MILLISECONDS);
            next = serverSide.frames.poll();
        }
        assertTrue(
                reason != null || next != null && next.length == 1,
                "after the send that failed with " + failed
                        + ", the server neither closed the link nor got the next frame");
    }
}
