package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.spi.Progress;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;

/** Links read by a thread that spins ({@link Progress#poll}) instead of by their event loop. */
class TcpLinkPollTest {
    private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);
    private final List<TcpTransport> transports = new ArrayList<>();

    /** Records frames (their first byte) and the thread that handed each; a handler bug on 'X' frames. */
    static final class Buggy implements LinkHandler {
        final BlockingQueue<Link> opened = new LinkedBlockingQueue<>();
        final ConcurrentLinkedQueue<String> frames = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> closed = new ConcurrentLinkedQueue<>();
        volatile boolean byEventLoop;

        @Override
        public void opened(final Link link) {
            opened.add(link);
        }

        @Override
        public void received(final Link link, final byte[] frame, final int offset, final int length) {
            frames.add(String.valueOf((char) frame[offset]));
            if (Thread.currentThread().getName().startsWith("troupe-tcp")) {
                byEventLoop = true;
            }
            if (frame[offset] == 'X') { // a layer's assert, a stack overflow, an allocation that fails
                throw new AssertionError("a bug in the handler");
            }
        }

        @Override
        public void closed(final Link link, final String reason) {
            closed.add(reason);
        }
    }

    @AfterEach
    void closeAll() {
        transports.forEach(TcpTransport::close);
    }

    private TcpTransport transport(final String id) {
        final TcpTransport t = new TcpTransport(
                id, SECRET, new TcpSettings("127.0.0.1", 0, Duration.ofMillis(100), Duration.ofSeconds(30), 1 << 20));
        transports.add(t);
        return t;
    }

    /**
     * An Error thrown by the handler of a frame that a spinning thread reads goes up through its poll: the link's
     * inbound buffer is then left as it was mid-handling (flipped), and the next read writes over the frames not
     * yet handed and hands the failing frame again. The event loop's read of the same frame closes the link.
     * Either the link closes, or the frames after the failing one come once each, in order; the failing one is
     * not handed twice.
     */
    @Test
    void shouldNotCorruptTheStreamWhenAHandlerThrowsAnErrorInAPoll() throws Exception {
        final Buggy serverSide = new Buggy();
        final String address = transport("server").listen(serverSide);
        final Link client = transport("client").connect(address, "", new Buggy(), Duration.ofSeconds(5));
        assertNotNull(serverSide.opened.poll(5, TimeUnit.SECONDS));
        final List<Throwable> thrownAtPoller = new ArrayList<>();
        boolean clientSawTheClose = false;
        final int spinning = Progress.startSpinning();
        try {
            // A frame the server's event loop reads (this thread does not poll yet) while this thread spins: the
            // event loop then stops watching the socket, and leaves the reading to this thread. Another test's
            // waiter still spinning in this JVM polls every link and may read it first: then try again, once the
            // heartbeat (100 ms) has the event loop watching again.
            for (int attempt = 0; attempt < 20 && !serverSide.byEventLoop; attempt++) {
                serverSide.frames.clear();
                client.send(new byte[] {'W'}, 0, 1, false);
                final long warm = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); // a loaded machine is slow
                while (serverSide.frames.isEmpty() && System.nanoTime() < warm) {
                    Thread.sleep(1);
                }
                if (!serverSide.byEventLoop) {
                    Thread.sleep(200);
                }
            }
            assertTrue(serverSide.byEventLoop, "the event loop read a frame");
            serverSide.frames.clear();
            client.send(new byte[] {'X'}, 0, 1, true); // one write: the failing frame and the next one
            client.send(new byte[] {'A'}, 0, 1, false);
            final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            boolean sentB = false;
            while (System.nanoTime() < until && serverSide.closed.isEmpty() && !serverSide.frames.contains("B")) {
                try {
                    Progress.poll();
                } catch (Throwable e) {
                    thrownAtPoller.add(e);
                }
                if (!sentB && (!thrownAtPoller.isEmpty() || serverSide.frames.contains("A"))) {
                    Thread.sleep(50); // whatever the poll left unread stays so; then more comes
                    sentB = true;
                    try {
                        client.send(new byte[] {'B'}, 0, 1, false);
                    } catch (IllegalStateException closedMeanwhile) {
                        clientSawTheClose = true; // the server closed the link on the Error, an outcome allowed
                        break;
                    }
                }
            }
        } finally {
            Progress.stopSpinning(spinning);
            Progress.beforePark();
        }
        if (serverSide.closed.isEmpty() && !clientSawTheClose) {
            assertEquals(
                    List.of("X", "A", "B"),
                    List.copyOf(serverSide.frames),
                    "frames handed after a handler's Error in a poll (the poller got it " + thrownAtPoller.size()
                            + " times)");
        }
    }

    /**
     * A link whose frames go elsewhere (shared memory) carries only wake-ups, sent when nobody spins: its event loop
     * must read each one at once, even while a thread of this JVM spins without reading that link. Were the event
     * loop to stop watching it as it does for links spinners read, the second frame would wait for the spinner.
     */
    @Test
    void aLinkLeftToItsEventLoopIsReadByItWhileAThreadSpins() throws Exception {
        final Buggy serverSide = new Buggy();
        final TcpTransport server = transport("server");
        final String address = server.listen(serverSide);
        final Link client = transport("client").connect(address, "", new Buggy(), Duration.ofSeconds(5));
        final Link accepted = serverSide.opened.poll(5, TimeUnit.SECONDS);
        assertNotNull(accepted);
        server.leaveToEventLoop(accepted);
        final int spinning = Progress.startSpinning(); // and never polls
        try {
            for (final String frame : List.of("A", "B", "C")) {
                client.send(frame.getBytes(StandardCharsets.US_ASCII), 0, 1, false);
                final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!serverSide.frames.contains(frame) && System.nanoTime() < until) {
                    Thread.sleep(1);
                }
                assertTrue(serverSide.frames.contains(frame), "frame " + frame + " read while a thread spins");
            }
        } finally {
            Progress.stopSpinning(spinning);
            Progress.beforePark();
        }
    }

    /**
     * A link closed by a thread other than its event loop (a handler run by a spinning waiter that found the peer
     * breaking the protocol) is closed at once for whoever asks, and reads nothing more, though its channel closes
     * later, on the event loop, which may be busy.
     */
    @Test
    void aLinkClosedFromAnotherThreadThanItsEventLoopIsClosedAtOnce() throws Exception {
        final String address = transport("server").listen(new Buggy());
        final TcpLink client = (TcpLink) transport("client").connect(address, "", new Buggy(), Duration.ofSeconds(5));
        final CountDownLatch busy = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        client.eventLoop().execute(() -> {
            busy.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            assertTrue(busy.await(5, TimeUnit.SECONDS));
            client.close("the peer broke the protocol");
            assertFalse(client.isOpen(), "closed for whoever asks");
            assertThrows(IllegalStateException.class, () -> client.send(new byte[] {'A'}, 0, 1, false));
        } finally {
            release.countDown();
        }
    }
}
