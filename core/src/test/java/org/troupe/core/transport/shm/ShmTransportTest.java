package org.troupe.core.transport.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.core.transport.Delivery;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;
import org.troupe.core.transport.Transport;
import org.troupe.core.transport.TransportSettings;
import org.troupe.core.transport.tcp.TcpSettings;
import org.troupe.core.transport.tcp.TcpTransport;

/** Two runtimes' transports in one JVM, which is one host and one user: their links go through shared memory. */
class ShmTransportTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef";
    private static final int RING = 64 * 1024;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path shm;

    private final List<Transport> transports = new ArrayList<>();

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

        byte[] next() throws InterruptedException {
            final byte[] f = frames.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertNotNull(f, "no frame arrived");
            return f;
        }
    }

    /** A recorder whose reader is held in the handler of the first frame until {@link #release}: it reads no more. */
    static final class HeldRecorder extends Recorder {
        private final CountDownLatch reading = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void received(final Link link, final byte[] frame, final int offset, final int length) {
            super.received(link, frame, offset, length);
            reading.countDown();
            try {
                release.await(); // the peer stops reading the ring
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void awaitHeld() throws InterruptedException {
            assertTrue(reading.await(10, TimeUnit.SECONDS), "the peer's reader is held in a handler");
        }

        void release() {
            release.countDown();
        }
    }

    private TransportSettings settings(final Path directory) {
        return new TransportSettings(
                "127.0.0.1",
                "",
                0,
                Duration.ofMillis(200),
                Duration.ofMillis(1000),
                8 << 20,
                SECRET,
                true,
                directory.toString(),
                RING);
    }

    private ShmTransport transport(final String id, final ShmTransport.Mode mode) {
        final ShmTransport t = new ShmTransport(id, settings(shm), mode);
        transports.add(t);
        return t;
    }

    @AfterEach
    void closeAll() {
        transports.forEach(Transport::close);
    }

    private static byte[] bytes(final int n, final int seed) {
        final byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void aLinkBetweenRuntimesOfOneHostGoesThroughSharedMemoryBothWays() throws Exception {
        final Recorder server = new Recorder();
        final Recorder client = new Recorder();
        final String address = transport("server", ShmTransport.Mode.AUTO).listen(server);
        final Link link = transport("client", ShmTransport.Mode.AUTO).connect(address, "server", client, TIMEOUT);
        assertInstanceOf(ShmLink.class, link);
        final Link accepted = server.opened.poll(10, TimeUnit.SECONDS);
        assertInstanceOf(ShmLink.class, accepted);
        assertEquals("server", link.peerRuntimeId());
        assertEquals("client", accepted.peerRuntimeId());

        link.send(new byte[] {1, 2, 3}, 0, 3, false);
        assertArrayEquals(new byte[] {1, 2, 3}, server.next());
        accepted.send(new byte[] {9, 8, 7, 6}, 1, 2, false);
        assertArrayEquals(new byte[] {8, 7}, client.next());
        try (var files = Files.list(shm.resolve("troupe-" + SameHost.uid()))) {
            assertEquals(0, files.count(), "the ring file is removed once both ends have mapped it");
        }
    }

    @Test
    void framesLargerThanARingRecordAndTheRingItselfArriveWholeAndInOrder() throws Exception {
        final Recorder server = new Recorder();
        final String address = transport("server", ShmTransport.Mode.AUTO).listen(server);
        final Link link =
                transport("client", ShmTransport.Mode.AUTO).connect(address, "server", new Recorder(), TIMEOUT);
        final int[] sizes = {0, 1, RING / 8 - 8, RING / 8, RING / 8 + 1, RING - 1, 3 * RING + 17, 1 << 20};
        final Thread sender = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < sizes.length; i++) {
                final byte[] b = bytes(sizes[i], i);
                if (i % 2 == 0) {
                    link.send(b, 0, b.length, false);
                } else { // a head and a tail buffer, as a large message is sent
                    final int head = Math.min(5, b.length);
                    link.send(b, head, ByteBuffer.wrap(b, head, b.length - head), false);
                }
            }
        });
        for (int i = 0; i < sizes.length; i++) {
            assertArrayEquals(bytes(sizes[i], i), server.next(), "frame " + i + " of " + sizes[i] + " bytes");
        }
        sender.join();
    }

    @Test
    void manyFramesWrapAroundTheRingWhileBothSidesSendAtOnce() throws Exception {
        final Recorder server = new Recorder();
        final Recorder client = new Recorder();
        final String address = transport("server", ShmTransport.Mode.AUTO).listen(server);
        final Link link = transport("client", ShmTransport.Mode.AUTO).connect(address, "server", client, TIMEOUT);
        final Link accepted = server.opened.poll(10, TimeUnit.SECONDS);
        final int count = 2000;
        final Thread a = Thread.ofPlatform().start(() -> sendCounted(link, count));
        final Thread b = Thread.ofPlatform().start(() -> sendCounted(accepted, count));
        for (int i = 0; i < count; i++) {
            assertEquals(i, ByteBuffer.wrap(server.next()).getInt());
            assertEquals(i, ByteBuffer.wrap(client.next()).getInt());
        }
        a.join();
        b.join();
    }

    /**
     * A handler of a frame from another link (an event loop of TCP links, which also reads the doorbells of these)
     * sends through a ring that its peer does not read: its sends are answers, and must be queued rather than wait for
     * room, since its own thread may be what would free it.
     */
    @Test
    void sendsFromAnotherLinksHandlerDoNotWaitForRoom() throws Exception {
        final HeldRecorder server = new HeldRecorder();
        final String address = transport("server", ShmTransport.Mode.AUTO).listen(server);
        final Link link =
                transport("client", ShmTransport.Mode.AUTO).connect(address, "server", new Recorder(), TIMEOUT);
        final int count = 4 * RING / 1000;
        final Thread answering = Thread.ofPlatform().start(() -> {
            Delivery.handlers()[0]++; // as a handler of a frame of another link runs
            sendCounted(link, count);
        });
        try {
            answering.join(TimeUnit.SECONDS.toMillis(30)); // a bound for a failing run, not a timing
            assertFalse(answering.isAlive(), "the sends from a handler waited for room");
            assertTrue(link.isOpen(), "the link stays open while the answers wait in its queue");
        } finally {
            server.release();
        }
        for (int i = 0; i < count; i++) {
            assertEquals(i, ByteBuffer.wrap(server.next()).getInt());
        }
    }

    /**
     * A sender whose thread was interrupted (a pool shut down now, a rank told to stop) meets a full ring: its
     * frame cannot be given up midway, so it waits for room as any sender does, parking between looks rather than
     * spinning on a park that an interrupt makes return at once, and keeps its interrupt for its caller.
     */
    @Test
    void anInterruptedSenderWaitingForRoomParksAndKeepsItsInterrupt() throws Exception {
        final HeldRecorder server = new HeldRecorder();
        final String address = transport("server", ShmTransport.Mode.AUTO).listen(server);
        final Link link =
                transport("client", ShmTransport.Mode.AUTO).connect(address, "server", new Recorder(), TIMEOUT);
        link.send(new byte[] {1}, 0, 1, false);
        server.awaitHeld();
        final int count = 4 * RING / 1000;
        final boolean[] interruptKept = new boolean[1];
        final Thread sender = Thread.ofPlatform().start(() -> {
            Thread.currentThread().interrupt();
            sendCounted(link, count);
            interruptKept[0] = Thread.currentThread().isInterrupted();
        });
        try {
            // A thread passes through TIMED_WAITING even in a park that returns at once: so most looks, not one,
            // must find it parked. One that spins is found running nearly always.
            int parked = 0;
            final int looks = 400;
            for (int i = 0; i < looks; i++) {
                parked += sender.getState() == Thread.State.TIMED_WAITING ? 1 : 0;
                Thread.sleep(1);
            }
            assertTrue(
                    parked > looks / 2, "the interrupted sender was parked at " + parked + " of " + looks + " looks");
        } finally {
            server.release();
        }
        sender.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(sender.isAlive(), "the sender got its frames through");
        assertTrue(interruptKept[0], "the sender's interrupt is kept");
        assertArrayEquals(new byte[] {1}, server.next());
        for (int i = 0; i < count; i++) {
            assertEquals(i, ByteBuffer.wrap(server.next()).getInt());
        }
    }

    /**
     * A thread whose interrupt is set (a pool shut down now, a caller's interrupted wait that goes on to send)
     * sends on a link whose peer reads nothing now: its frame rings the peer's doorbell on the control link. The
     * link must live on: an interrupt is the thread's business, not the link's.
     */
    @Test
    void anInterruptedThreadsSendLeavesTheLinkOpen() throws Exception {
        final Recorder server = new Recorder();
        final String address = transport("server", ShmTransport.Mode.AUTO).listen(server);
        final Recorder client = new Recorder();
        final Link link = transport("client", ShmTransport.Mode.AUTO).connect(address, "server", client, TIMEOUT);
        assertInstanceOf(ShmLink.class, link);
        final BlockingQueue<Throwable> failed = new LinkedBlockingQueue<>();
        final Thread sender = Thread.ofPlatform().start(() -> {
            Thread.currentThread().interrupt();
            try {
                link.send(new byte[] {3}, 0, 1, false);
            } catch (Throwable t) {
                failed.add(t);
            }
        });
        sender.join(TimeUnit.SECONDS.toMillis(30));
        assertEquals(List.of(), List.copyOf(failed));
        assertArrayEquals(new byte[] {3}, server.next());
        link.send(new byte[] {4}, 0, 1, false);
        assertArrayEquals(new byte[] {4}, server.next());
        assertTrue(link.isOpen(), "the link lives on: " + client.closed.peek());
        assertNull(client.closed.peek(), "the link lives on");
    }

    /** The ring files of {@code directory} this process has mapped now (removed from it once both ends mapped them). */
    private static long ringFilesMapped(final Path directory) throws IOException {
        return Files.readAllLines(Path.of("/proc/self/maps")).stream()
                .filter(l -> l.contains(directory.toString() + "/"))
                .map(l -> l.substring(l.indexOf('/')))
                .distinct()
                .count();
    }

    /**
     * The link is closed while a sender waits for room in a ring its peer does not read (its reader held in a
     * handler): the sender is released with the close's reason, and once the handler returns both ends unmap the
     * file, nothing of it left in the directory.
     */
    @Test
    void closingALinkReleasesASenderWaitingForRoomAndUnmapsTheRingOnBothEnds() throws Exception {
        final Path directory = shm.resolve("troupe-" + SameHost.uid());
        final long mappedBefore = ringFilesMapped(directory);
        final HeldRecorder server = new HeldRecorder();
        final String address = transport("server", ShmTransport.Mode.AUTO).listen(server);
        final Recorder client = new Recorder();
        final Link link = transport("client", ShmTransport.Mode.AUTO).connect(address, "server", client, TIMEOUT);
        assertInstanceOf(ShmLink.class, link);
        link.send(new byte[] {1}, 0, 1, false);
        server.awaitHeld();
        final BlockingQueue<Throwable> failed = new LinkedBlockingQueue<>();
        final Thread sender = Thread.ofPlatform().start(() -> {
            try {
                sendCounted(link, 4 * RING / 1000);
            } catch (Throwable t) {
                failed.add(t);
            }
        });
        try {
            while (sender.getState() != Thread.State.TIMED_WAITING && sender.isAlive()) {
                Thread.sleep(1); // until it waits for room
            }
            link.close("closed under a waiting sender");
            final Throwable e = failed.poll(30, TimeUnit.SECONDS);
            assertInstanceOf(IllegalStateException.class, e, "the waiting sender is released");
            assertTrue(e.getMessage().contains("closed under a waiting sender"), e.getMessage());
        } finally {
            server.release();
        }
        assertNotNull(client.closed.poll(10, TimeUnit.SECONDS));
        assertNotNull(server.closed.poll(10, TimeUnit.SECONDS));
        for (int i = 0; i < 10_000 && ringFilesMapped(directory) > mappedBefore; i++) { // a bound for a failing run
            Thread.sleep(1);
        }
        assertEquals(mappedBefore, ringFilesMapped(directory), "both ends unmapped the ring file");
        try (var files = Files.list(directory)) {
            assertEquals(0, files.count(), "nothing left in the directory");
        }
    }

    private static void sendCounted(final Link link, final int count) {
        final byte[] frame = new byte[1000];
        for (int i = 0; i < count; i++) {
            ByteBuffer.wrap(frame).putInt(i);
            link.send(frame, 0, frame.length, false);
        }
    }

    @Test
    void closingALinkTellsBothSidesAndRefusesLaterSends() throws Exception {
        final Recorder server = new Recorder();
        final Recorder client = new Recorder();
        final String address = transport("server", ShmTransport.Mode.AUTO).listen(server);
        final Link link = transport("client", ShmTransport.Mode.AUTO).connect(address, "server", client, TIMEOUT);
        server.opened.poll(10, TimeUnit.SECONDS);
        link.close("done here");
        assertNotNull(client.closed.poll(10, TimeUnit.SECONDS));
        assertNotNull(server.closed.poll(10, TimeUnit.SECONDS));
        assertFalse(link.isOpen());
        final IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> link.send(new byte[1], 0, 1, false));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    /** A link whose server holds the client's frame 1 in its handler, with frame 2 waiting in its ring. */
    private record HeldLink(ShmTransport serverTransport, HeldRecorder server, Link client, Link serverLink) {
        /** Frame 3, sent after the server's side closed, before the client learns of it (if it has not). */
        void sendAfterTheClose() {
            try {
                client.send(new byte[] {3}, 0, 1, false);
            } catch (IllegalStateException closedAlready) {
                // the client heard of the close first: nothing was sent
            }
        }

        void assertOnlyTheHeldFrameCame() throws InterruptedException {
            assertNotNull(server.closed.poll(10, TimeUnit.SECONDS), "the server's link closed");
            assertArrayEquals(new byte[] {1}, server.frames.poll());
            assertNull(server.frames.poll(), "nothing was handed over after the close");
        }
    }

    private HeldLink aLinkWithAFrameHeldAndOneWaiting() throws Exception {
        final HeldRecorder server = new HeldRecorder();
        final ShmTransport serverTransport = transport("server", ShmTransport.Mode.SHM);
        final String address = serverTransport.listen(server);
        final Link client =
                transport("client", ShmTransport.Mode.SHM).connect(address, "server", new Recorder(), TIMEOUT);
        final Link serverLink = server.opened.poll(10, TimeUnit.SECONDS);
        assertNotNull(serverLink);
        client.send(new byte[] {1}, 0, 1, false);
        server.awaitHeld();
        client.send(new byte[] {2}, 0, 1, false); // waits in the ring behind the handler of the first
        return new HeldLink(serverTransport, server, client, serverLink);
    }

    /**
     * A side that closes its link (a handler's Error, say) while its reader is busy hears nothing more from then on:
     * neither the frames waiting in its ring nor those the peer sends before it learns of the close.
     */
    @Test
    void aLinkClosedHereHandsOverNothingMoreOfThePeers() throws Exception {
        final HeldLink held = aLinkWithAFrameHeldAndOneWaiting();
        held.serverLink().close("a handler failed");
        held.sendAfterTheClose();
        held.server().release();
        held.assertOnlyTheHeldFrameCame();
    }

    /** As above when the whole runtime closes: its links hear nothing more from the moment it starts to. */
    @Test
    void aRuntimeThatClosesHandsOverNothingMoreOfThePeers() throws Exception {
        final HeldLink held = aLinkWithAFrameHeldAndOneWaiting();
        final Thread closer = Thread.ofPlatform().start(held.serverTransport()::close);
        try {
            final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (held.serverLink().isOpen() && System.nanoTime() < end) {
                Thread.sleep(5);
            }
            assertFalse(held.serverLink().isOpen(), "the link is closed once its runtime starts to close");
            held.sendAfterTheClose();
        } finally {
            held.server().release();
            closer.join(TimeUnit.SECONDS.toMillis(30));
        }
        held.assertOnlyTheHeldFrameCame();
    }

    @Test
    void aFrameOverThePeersLimitIsRefusedBeforeAnythingIsWritten() throws Exception {
        final Recorder server = new Recorder();
        final String address = transport("server", ShmTransport.Mode.AUTO).listen(server);
        final Link link =
                transport("client", ShmTransport.Mode.AUTO).connect(address, "server", new Recorder(), TIMEOUT);
        final byte[] big = new byte[(8 << 20) + 1];
        final IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> link.send(big, 0, big.length, false));
        assertTrue(e.getMessage().contains("troupe.serialization.maxMessageBytes"), e.getMessage());
        link.send(new byte[] {5}, 0, 1, false);
        assertArrayEquals(new byte[] {5}, server.next(), "the link still works");
    }

    @Test
    void autoKeepsALinkToAPlainTcpRuntimeOnTcp() throws Exception {
        final Recorder server = new Recorder();
        final TcpTransport tcp = new TcpTransport(
                "server",
                SECRET.getBytes(),
                new TcpSettings("127.0.0.1", 0, Duration.ofMillis(200), Duration.ofSeconds(1), 1 << 20));
        transports.add(tcp);
        final String address = tcp.listen(server);
        final Link link =
                transport("client", ShmTransport.Mode.AUTO).connect(address, "server", new Recorder(), TIMEOUT);
        assertFalse(link instanceof ShmLink);
        link.send(new byte[] {4, 2}, 0, 2, false);
        assertArrayEquals(new byte[] {4, 2}, server.next());
    }

    /**
     * A peer that passed the handshake offers what no ring file of this host is: a path out of the directory, a
     * ring size out of range, another host's identity, a file of the right name but the wrong size or layout. Each is
     * refused with its reason and the link stays on TCP ({@code auto}); an offer that is not one closes the link.
     */
    @Test
    void anOfferOfNoRingFileOfThisHostIsRefusedAndTheLinkStaysOnTcp() throws Exception {
        final Recorder server = new Recorder();
        final String address = transport("server", ShmTransport.Mode.AUTO).listen(server);
        final Path directory = shm.resolve("troupe-" + SameHost.uid());
        final String name = ProcessHandle.current().pid() + "-" + RingFile.PID_NAMESPACE + "-0123456789abcdef";
        final Path wrongSize = Files.write(directory.resolve(name), new byte[4096]);
        final String wrongLayoutName =
                ProcessHandle.current().pid() + "-" + RingFile.PID_NAMESPACE + "-fedcba9876543210";
        final Path wrongLayout =
                Files.write(directory.resolve(wrongLayoutName), new byte[(int) RingFileLayout.fileLength(RING)]);
        final String host = SameHost.identity();
        final List<Upgrade.Offer> offers = List.of(
                new Upgrade.Offer(host, "../../etc/passwd", RING),
                new Upgrade.Offer(host, "x/" + name, RING),
                new Upgrade.Offer(host, name, Integer.MAX_VALUE),
                new Upgrade.Offer(host, name, -RING),
                new Upgrade.Offer("another-boot/net:[1]/" + SameHost.uid(), name, RING),
                new Upgrade.Offer(host, name, RING),
                new Upgrade.Offer(host, wrongLayoutName, RING));
        final TcpTransport hostile = TcpTransport.of("hostile", settings(shm), true);
        transports.add(hostile);
        for (final Upgrade.Offer offer : offers) {
            final Recorder answers = new Recorder();
            final Link link = hostile.connect(address, "server", answers, TIMEOUT);
            final byte[] bytes = offer.encode();
            link.send(bytes, 0, bytes.length, false);
            final byte[] reply = answers.next();
            final Upgrade.Answer answer = (Upgrade.Answer) Upgrade.decode(reply, 0, reply.length);
            assertFalse(answer.accepted(), offer + " accepted");
            assertFalse(answer.reason().isEmpty(), offer + ": no reason said");
            final Link accepted = server.opened.poll(10, TimeUnit.SECONDS);
            assertNotNull(accepted, offer + ": the link is not handed over on TCP");
            assertFalse(accepted instanceof ShmLink, offer.toString());
            link.send(new byte[] {5}, 0, 1, false);
            assertArrayEquals(new byte[] {5}, server.next(), offer + ": the link carries frames on TCP");
            link.close("next");
        }
        assertTrue(Files.exists(wrongSize) && Files.exists(wrongLayout), "a refused file is left to its maker");
        assertTrue(Files.exists(Path.of("/etc/passwd")));

        final Link garbled = hostile.connect(address, "server", new Recorder(), TIMEOUT);
        garbled.send(new byte[] {'O', 0, 9}, 0, 3, false);
        for (int i = 0; i < 10_000 && garbled.isOpen(); i++) { // a bound for a failing run
            Thread.sleep(1);
        }
        assertFalse(garbled.isOpen(), "a garbled offer closes the link");
    }

    @Test
    void shmRefusesAPeerThatCannotShareMemoryNamingTheSettingToUse() throws Exception {
        final TcpTransport tcp = new TcpTransport(
                "server",
                SECRET.getBytes(),
                new TcpSettings("127.0.0.1", 0, Duration.ofMillis(200), Duration.ofSeconds(1), 1 << 20));
        transports.add(tcp);
        final String address = tcp.listen(new Recorder());
        final ShmTransport client = transport("client", ShmTransport.Mode.SHM);
        final IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> client.connect(address, "server", new Recorder(), TIMEOUT));
        assertTrue(e.getMessage().contains("troupe.core.transport=auto"), e.getMessage());
    }

    @Test
    void aLinkWhoseRingFileCannotBeMadeStaysOnTcpInAuto() throws Exception {
        final Recorder server = new Recorder();
        final String address = transport("server", ShmTransport.Mode.AUTO).listen(server);
        final ShmTransport client = transport("client", ShmTransport.Mode.AUTO);
        final Path ringDirectory = shm.resolve("troupe-" + SameHost.uid());
        Files.delete(ringDirectory); // removed under the running runtimes, as a tmp cleaner would
        try {
            final Link link = client.connect(address, "server", new Recorder(), TIMEOUT);
            assertFalse(link instanceof ShmLink);
            link.send(new byte[] {7}, 0, 1, false);
            assertArrayEquals(new byte[] {7}, server.next());
        } finally {
            Files.createDirectories(ringDirectory);
        }
    }

    /**
     * The ring directory removed under running runtimes (a tmp cleaner) and a link planted in its place by someone
     * who may write the base directory (its sticky bit lets anyone make a name there): a ring file made through it
     * would sit in a directory its planter owns, who could swap it for a file of their own before the peer opens it,
     * and so read and inject the link's frames past the handshake. Each link's set-up checks the directory again.
     */
    @Test
    void aLinkPlantedInPlaceOfTheRingDirectoryIsNotFollowed() throws Exception {
        final Recorder server = new Recorder();
        final String address = transport("server", ShmTransport.Mode.AUTO).listen(server);
        final ShmTransport client = transport("client", ShmTransport.Mode.AUTO);
        final Path ringDirectory = shm.resolve("troupe-" + SameHost.uid());
        final Path strangers = Files.createDirectory(shm.resolve("strangers"));
        Files.setPosixFilePermissions(strangers, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.delete(ringDirectory);
        Files.createSymbolicLink(ringDirectory, strangers);
        try {
            final Link link = client.connect(address, "server", new Recorder(), TIMEOUT);
            assertFalse(link instanceof ShmLink, "a link through a file in the stranger's directory");
            try (var files = Files.list(strangers)) {
                assertEquals(0, files.count(), "no ring file is made in the stranger's directory");
            }
            link.send(new byte[] {7}, 0, 1, false);
            assertArrayEquals(new byte[] {7}, server.next());
        } finally {
            Files.delete(ringDirectory);
            Files.createDirectory(ringDirectory);
        }
    }

    /**
     * A ring directory open to other users, found at the start or made so later: no ring file is made in it (another
     * user could read it), the transport says how to fix it, and links stay on TCP.
     */
    @Test
    void aRingDirectoryOpenToOthersIsNotUsedAtTheStartNorLater() throws Exception {
        final Path ringDirectory = shm.resolve("troupe-" + SameHost.uid());
        final var open = PosixFilePermissions.fromString("rwxr-xr-x");
        final var closed = PosixFilePermissions.fromString("rwx------");
        Files.createDirectory(ringDirectory, PosixFilePermissions.asFileAttribute(closed));
        Files.setPosixFilePermissions(ringDirectory, open);
        final ShmTransport atStart = transport("at-start", ShmTransport.Mode.AUTO);
        assertNotNull(atStart.noSharedMemory());
        assertTrue(atStart.noSharedMemory().contains("chmod 700"), atStart.noSharedMemory());

        Files.setPosixFilePermissions(ringDirectory, closed);
        final Recorder server = new Recorder();
        final String address = transport("server", ShmTransport.Mode.AUTO).listen(server);
        final ShmTransport client = transport("client", ShmTransport.Mode.AUTO);
        Files.setPosixFilePermissions(ringDirectory, open); // after both started
        try {
            final Link link = client.connect(address, "server", new Recorder(), TIMEOUT);
            assertFalse(link instanceof ShmLink, "a ring file in a directory open to others");
            try (var files = Files.list(ringDirectory)) {
                assertEquals(0, files.count());
            }
            link.send(new byte[] {6}, 0, 1, false);
            assertArrayEquals(new byte[] {6}, server.next());
        } finally {
            Files.setPosixFilePermissions(ringDirectory, closed);
        }
    }

    @Test
    void aRuntimeWithoutUsableSharedMemoryStaysOnTcpInAutoAndSaysWhyInShm() throws IOException {
        final Path notADirectory = Files.createFile(shm.resolve("file"));
        final ShmTransport auto = new ShmTransport("a", settings(notADirectory), ShmTransport.Mode.AUTO);
        transports.add(auto);
        assertNotNull(auto.noSharedMemory());
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new ShmTransport("b", settings(notADirectory), ShmTransport.Mode.SHM));
        assertTrue(e.getMessage().contains(notADirectory + " is not a directory"), e.getMessage());
        assertTrue(e.getMessage().contains("troupe.core.shmDirectory"), e.getMessage());
    }

    @Test
    void shmOnADirectoryThatIsMissingIsABadSettingThatNamesItAndTheWaysOut() {
        final Path missing = shm.resolve("missing");
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> new ShmTransport("b", settings(missing), ShmTransport.Mode.SHM));
        assertTrue(e.getMessage().contains(missing + " does not exist"), e.getMessage());
        assertTrue(
                e.getMessage().contains("set troupe.core.shmDirectory")
                        && e.getMessage().contains("troupe.core.transport=auto"),
                e.getMessage());
        assertFalse(Files.exists(missing), "the directory a setting names is not made");
    }

    @Test
    void aLinkWithoutRoomForItsRingSaysItStaysOnTcpAndHowToFixIt() {
        final String m = ShmTransport.noRingMessage("rt-1-a", "/dev/shm/troupe-1000 has less than 16 MiB free");
        assertTrue(m.contains("rt-1-a") && m.contains("less than 16 MiB free"), m);
        assertTrue(m.contains("stay on TCP") && m.contains("said once"), m);
        assertTrue(
                m.contains("troupe.core.shmRingBytes")
                        && m.contains("--shm-size")
                        && m.contains("troupe.core.transport=tcp"),
                m);
    }
}
