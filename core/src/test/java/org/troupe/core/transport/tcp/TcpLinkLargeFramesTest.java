package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;

/**
 * Large frames (over 1 MiB, written by the sender's thread while it holds the link's outbound lock) against
 * handlers that answer on the same link from the thread that reads it, as the core's endpoint echo, a lookup's reply
 * or a pushed future value do.
 */
class TcpLinkLargeFramesTest {
    private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);
    private static final int LIMIT = 64 << 20;
    private final List<TcpTransport> transports = new ArrayList<>();
    private final List<Link> links = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    /** Answers every 'E' frame with an 'R' frame on the same link, from the reading thread; counts the rest. */
    static final class Answering implements LinkHandler {
        final BlockingQueue<Link> opened = new LinkedBlockingQueue<>();
        final AtomicInteger answers = new AtomicInteger();
        final AtomicInteger large = new AtomicInteger();
        final ConcurrentLinkedQueue<String> closed = new ConcurrentLinkedQueue<>();

        @Override
        public void opened(final Link link) {
            opened.add(link);
        }

        @Override
        public void received(final Link link, final byte[] frame, final int offset, final int length) {
            switch (frame[offset]) {
                case 'E' -> link.send(new byte[] {'R'}, 0, 1, false);
                case 'R' -> answers.incrementAndGet();
                case 'L' -> large.incrementAndGet();
                default -> {}
            }
        }

        @Override
        public void closed(final Link link, final String reason) {
            closed.add(reason);
        }
    }

    private TcpTransport transport(final String id, final Duration peerTimeout) {
        final TcpTransport t = new TcpTransport(
                id, SECRET, new TcpSettings("127.0.0.1", 0, Duration.ofMillis(100), peerTimeout, LIMIT));
        transports.add(t);
        return t;
    }

    @AfterEach
    void closeAll() throws Exception {
        // A deadlocked link holds its event loop: close the sockets under it first, so that the writers fail, give
        // the lock back, and the transports can stop.
        for (final Link l : links) {
            if (l instanceof TcpLink t) {
                socketOf(t).socket().close();
            }
        }
        for (final Thread t : threads) {
            t.interrupt();
            t.join(10_000);
        }
        transports.forEach(TcpTransport::close);
    }

    private static DirectSocketChannel socketOf(final TcpLink link) {
        return link.channel();
    }

    private static String stacks(final List<Thread> of) {
        final StringBuilder b = new StringBuilder();
        for (final Thread t : Thread.getAllStackTraces().keySet()) {
            if (of.contains(t) || t.getName().startsWith("troupe-tcp")) {
                b.append('\n').append(t.getName()).append(' ').append(t.getState());
                Arrays.stream(t.getStackTrace())
                        .limit(12)
                        .forEach(e -> b.append("\n    at ").append(e));
            }
        }
        return b.toString();
    }

    private Thread start(final String name, final Runnable r) {
        final Thread t = Thread.ofPlatform().name(name).daemon().start(r);
        threads.add(t);
        return t;
    }

    /**
     * Both sides write large frames to each other, and small frames the other side answers. A side's
     * reading thread that answers while its own writer is in the middle of a large frame blocks on the outbound
     * lock, still holding the reading lock: the writer, which reads while the socket is full, can no longer read.
     * When both sides get there, each writer waits for room the other side will never make.
     */
    @Test
    void shouldNotDeadlockWhenBothSidesWriteLargeFramesAndAnswerSmallOnes() throws Exception {
        // The reading thread must be the event loop at the wrong time: three tries, one in the fast loop.
        final int attempts = Integer.getInteger("troupe.test.fuzzCases", 20_000) < 20_000 ? 1 : 3;
        for (int attempt = 0; attempt < attempts; attempt++) {
            bothSidesWriteLargeFramesAndAnswerSmallOnes(attempt);
        }
    }

    private void bothSidesWriteLargeFramesAndAnswerSmallOnes(final int attempt) throws Exception {
        final Answering serverSide = new Answering();
        final Answering clientSide = new Answering();
        final String address = transport("server", Duration.ofSeconds(120)).listen(serverSide);
        final Link client =
                transport("client", Duration.ofSeconds(120)).connect(address, "", clientSide, Duration.ofSeconds(5));
        final Link server = serverSide.opened.poll(5, TimeUnit.SECONDS);
        assertNotNull(server);
        links.add(client);
        links.add(server);
        final int rounds = 50;
        final byte[] big = new byte[8 << 20];
        big[0] = 'L';
        final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        final Link[] ends = {client, server};
        final Thread[] writers = new Thread[2];
        for (int side = 0; side < 2; side++) {
            final Link link = ends[side];
            writers[side] = start("writer-" + side, () -> {
                try {
                    for (int i = 0; i < rounds; i++) {
                        link.send(big, 0, big.length, false);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            final Thread writer = writers[side];
            start(
                    "asker-" + side,
                    () -> { // small frames the other side answers, while large ones are written
                        try {
                            while (writer.isAlive()) {
                                link.send(new byte[] {'E'}, 0, 1, false);
                                Thread.sleep(1);
                            }
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    });
        }
        final Thread a = writers[0];
        final Thread b = writers[1];
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        a.join(Duration.ofNanos(Math.max(1, until - System.nanoTime())));
        b.join(Duration.ofNanos(Math.max(1, until - System.nanoTime())));
        if (a.isAlive() || b.isAlive()) {
            fail("attempt " + attempt + ": the writers are stuck after 30 s (client got " + clientSide.large
                    + " large frames and " + clientSide.answers + " answers, server " + serverSide.large + " and "
                    + serverSide.answers + "):" + stacks(threads));
        }
        assertTrue(failures.isEmpty(), "writers failed: " + failures);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((clientSide.large.get() < rounds || serverSide.large.get() < rounds) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(rounds, clientSide.large.get());
        assertEquals(rounds, serverSide.large.get());
    }
}
