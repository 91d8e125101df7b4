package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.transport.Delivery;
import org.troupe.core.transport.Link;

/**
 * The ways a tagged frame reaches the socket besides the plain ones: a burst written by a sender that waits (and
 * the reading it may resume), a handler's large answer, and a frame refused before anything of it is taken. Each keeps the link whole.
 */
class TcpLinkWritePathsTest {
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private final List<TcpTransport> transports = new ArrayList<>();

    private TcpTransport transport(final String id, final Duration peerTimeout) {
        final TcpTransport t = new TcpTransport(
                id, SECRET, new TcpSettings("127.0.0.1", 0, Duration.ofMillis(100), peerTimeout, 64 << 20, true));
        transports.add(t);
        return t;
    }

    @AfterEach
    void closeAll() {
        transports.forEach(TcpTransport::close);
    }

    /** A side that answers every frame of more than a byte with the same bytes, from the thread that read it. */
    private static final class Echo extends TcpTransportTest.Recorder {
        private final boolean batch;

        Echo(final boolean batch) {
            this.batch = batch;
        }

        @Override
        public void received(final Link link, final byte[] frame, final int offset, final int length) {
            if (length > 1) {
                link.send(frame, offset, length, batch);
            } else {
                super.received(link, frame, offset, length);
            }
        }
    }

    /** Keeps {@code link}'s event loop busy until closed: nothing it would write or read goes meanwhile. */
    private static AutoCloseable holdEventLoop(final TcpLink link) throws InterruptedException {
        final CountDownLatch busy = new CountDownLatch(1);
        final Semaphore release = new Semaphore(0);
        link.eventLoop().execute(() -> {
            busy.countDown();
            release.acquireUninterruptibly();
        });
        assertTrue(busy.await(5, TimeUnit.SECONDS));
        return release::release;
    }

    /**
     * A frame someone waits for, sent behind a burst of batched frames, takes the burst out with it from the
     * sending thread, without waiting for the event loop (which may not get a core while its caller spins).
     */
    @Test
    void aFrameSomeoneWaitsForWritesTheBurstQueuedBeforeIt() throws Exception {
        final TcpTransportTest.Recorder serverSide = new TcpTransportTest.Recorder();
        final String address = transport("server", Duration.ofSeconds(20)).listen(serverSide);
        final Link link = transport("client", Duration.ofSeconds(20))
                .connect(address, "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        try (AutoCloseable held = holdEventLoop((TcpLink) link)) {
            final int frames = 100;
            for (int i = 0; i <= frames; i++) {
                link.send(ByteBuffer.allocate(4).putInt(i).array(), 0, 4, i < frames);
            }
            for (int i = 0; i <= frames; i++) {
                final byte[] got = serverSide.frames.poll(5, TimeUnit.SECONDS);
                assertNotNull(got, "frame " + i + " waited for the sender's event loop");
                assertEquals(i, ByteBuffer.wrap(got).getInt(), "frames out of order");
            }
        }
    }

    /**
     * A handler's answer of over 1 MiB is not written by a large write (a handler must not wait for room), and was
     * not hashed before the lock: it must be tagged where it is queued, even once the link's direct buffer has
     * grown large enough to take it.
     */
    @Test
    void aHandlersAnswerOfOverOneMebibyteIsTaggedWhateverRoomTheDirectBufferHas() throws Exception {
        final String address = transport("server", Duration.ofSeconds(20)).listen(new Echo(false));
        final TcpTransportTest.Recorder clientSide = new TcpTransportTest.Recorder();
        final Link link =
                transport("client", Duration.ofSeconds(20)).connect(address, "", clientSide, Duration.ofSeconds(5));
        for (final int size : new int[] {600_000, 700_000, 1_100_000}) { // the second grows it past 1 MiB
            final byte[] frame = new byte[size];
            frame[size - 1] = 7;
            link.send(frame, 0, size, false);
            final byte[] echoed = clientSide.frames.poll(10, TimeUnit.SECONDS);
            assertNotNull(echoed, "the echo of " + size + " bytes; the link closed: " + clientSide.closed.peek());
            assertEquals(size, echoed.length);
            assertEquals(7, echoed[size - 1]);
        }
        assertTrue(link.isOpen());
    }

    /**
     * Answers pile up while the event loop is busy, until reading is held back; a frame someone waits for then
     * writes the whole queue from its thread. Reading must resume then, as it does when the event loop writes them,
     * or the link reads nothing more and is closed as silent.
     */
    @Test
    void readingHeldBackForAnswersResumesWhenASenderWritesThem() throws Exception {
        final Echo serverSide = new Echo(true);
        final String address = transport("server", Duration.ofSeconds(30)).listen(serverSide);
        final Link client = transport("client", Duration.ofSeconds(30))
                .connect(address, "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        final TcpLink server = (TcpLink) serverSide.opened.poll(5, TimeUnit.SECONDS);
        assertNotNull(server);
        try (AutoCloseable held = holdEventLoop(server)) {
            final int frame = 64 * 1024;
            Thread.ofPlatform()
                    .daemon()
                    .start(
                            () -> { // 37.5 MiB of answers to queue, more than may wait
                                for (int i = 0; i < 600; i++) {
                                    client.send(new byte[frame], 0, frame, true);
                                }
                            });
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!readsHeld(server) && System.nanoTime() < deadline) {
                server.poll(); // as a spinning waiter does: the answers queue, their flushes wait for the event loop
                Thread.onSpinWait();
            }
            assertTrue(readsHeld(server), "reading was held back for the answers queued");
            final int[] handling = handlingCount();
            handling[0]++; // as another link's handler: a sender that does not wait for room
            try {
                while (outboundFrames(server) != null && System.nanoTime() < deadline) {
                    server.send(new byte[] {1}, 0, 1, false); // writes the queue from this thread
                    Thread.sleep(1);
                }
            } finally {
                handling[0]--;
            }
            assertEquals(null, outboundFrames(server), "the answers were written by the sender");
            assertFalse(readsHeld(server), "reading resumed once they were");
        }
        client.send(new byte[] {9}, 0, 1, false);
        assertNotNull(serverSide.frames.poll(10, TimeUnit.SECONDS), "a frame sent after them is read");
    }

    /**
     * Large frames queued behind a burst whose flush waits for a busy event loop (reading a peer that streams, say),
     * while a small frame someone waits for writes the queue from its front now and then: the queue's written bytes
     * must not stay in it. They did (Netty grows a buffer at its end and keeps what was read), so the queue's room
     * grew by every large frame though few bytes waited, past the direct memory a node has (a node streaming 8 MiB
     * frames died of an OutOfMemoryError growing it to 124 MiB while at most 32 MiB waited).
     */
    @Test
    void theQueueWrittenFromItsFrontBySendersDoesNotGrowWithEveryFrameQueuedBehind() throws Exception {
        final int frame = 8 << 20;
        final AtomicInteger large = new AtomicInteger();
        final String address = transport("server", Duration.ofSeconds(30)).listen(new TcpTransportTest.Recorder() {
            @Override
            public void received(final Link l, final byte[] bytes, final int offset, final int length) {
                if (length > 1) {
                    large.incrementAndGet();
                }
            }
        });
        final TcpLink link = (TcpLink) transport("client", Duration.ofSeconds(30))
                .connect(address, "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        final ByteBuffer payload = ByteBuffer.allocateDirect(frame);
        final int rounds = 12;
        long largest = 0;
        try (AutoCloseable held = holdEventLoop(link)) { // the flushes wait for it
            for (int i = 0; i < rounds; i++) {
                if (outboundFrames(link) == null) {
                    link.send(new byte[] {1}, 0, 1, true); // queued: a frame sent now queues behind it
                }
                link.send(new byte[] {2}, 1, payload.duplicate(), false); // queued behind it, not written large
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (link.outbound().pendingBytes() > 2 * frame && System.nanoTime() < deadline) {
                    link.send(new byte[] {3}, 0, 1, false); // writes the queue, as far as the socket takes it
                    Thread.sleep(1);
                }
                synchronized (link.outbound().lock()) {
                    final ByteBuf queued = link.outbound().queuedFrames();
                    largest = Math.max(largest, queued == null ? 0 : queued.capacity());
                }
            }
        }
        assertTrue(
                largest <= OutboundPath.MAX_PENDING_BYTES + 2L * frame,
                "the queue grew to " + (largest >> 20) + " MiB, with at most " + (3 * frame >> 20) + " MiB waiting");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (large.get() < rounds && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(rounds, large.get(), "the large frames arrived");
        assertTrue(link.isOpen());
    }

    /**
     * A frame whose bounds are wrong fails before it takes anything (its place in the sequence, the socket's
     * writing side); frames sent after it still go.
     */
    @Test
    void aFrameWithWrongBoundsLeavesTheLinkWhole() throws Exception {
        final TcpTransportTest.Recorder serverSide = new TcpTransportTest.Recorder();
        final String address = transport("server", Duration.ofSeconds(3)).listen(serverSide);
        final Link link = transport("client", Duration.ofSeconds(3))
                .connect(address, "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        final byte[] large = new byte[2 << 20];
        assertThrows(IndexOutOfBoundsException.class, () -> link.send(large, 10, large.length, false));
        assertThrows(IndexOutOfBoundsException.class, () -> link.send(new byte[8], 4, 8, false));
        link.send(new byte[] {1}, 0, 1, false);
        assertNotNull(
                serverSide.frames.poll(5, TimeUnit.SECONDS),
                "the frame after them; the server side closed: " + serverSide.closed.peek());
        assertTrue(link.isOpen());
    }

    private static boolean readsHeld(final TcpLink link) {
        return link.outbound().readsHeld();
    }

    private static Object outboundFrames(final TcpLink link) {
        return link.outbound().queuedFrames();
    }

    private static int[] handlingCount() {
        return Delivery.handlers();
    }
}
