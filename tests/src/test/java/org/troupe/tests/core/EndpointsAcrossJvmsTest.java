package org.troupe.tests.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;
import org.troupe.tests.ParentRuntime;

/** Endpoint frames between this JVM and node JVMs: in order, whole at every size, and a lost runtime stays lost. */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EndpointsAcrossJvmsTest {
    @RegisterExtension
    static final ParentRuntime parent = ParentRuntime.withNodeJvms();

    /** A frame as received, copied out of the views. */
    record Frame(EndpointAddress from, byte[] header, byte[] payload) {}

    /** Keeps copies of the frames and the losses it is told of. */
    static final class Inbox implements EndpointHandler {
        final BlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
        final BlockingQueue<String> lost = new LinkedBlockingQueue<>();

        @Override
        public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
            final byte[] h = new byte[header.remaining()];
            final byte[] p = new byte[payload.remaining()];
            header.get(h);
            payload.get(p);
            frames.add(new Frame(from, h, p));
        }

        @Override
        public void runtimeLost(final String runtimeId, final String reason) {
            lost.add(runtimeId + ": " + reason);
        }

        Frame next() throws InterruptedException {
            final Frame f = frames.poll(30, TimeUnit.SECONDS);
            assertNotNull(f, "no frame came back within 30 s");
            return f;
        }
    }

    private static Node node(final String name) throws Exception {
        parent.jvms().start(name, parent.runtime().listen());
        return parent.runtime().awaitNode(name, Duration.ofSeconds(60));
    }

    private static byte[] pattern(final int length, final int seed) {
        final byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    @Test
    void shouldCarryFramesOfEverySizeBothWaysInOrder() throws Exception {
        final Node n = node("echo1");
        final EndpointAddress echo =
                ActiveObjects.newActive(EchoHost.class, null, n).open("echo");
        assertEquals(n.runtimeId(), echo.runtimeId());
        assertEquals(echo, TroupeRuntime.get().endpoints().lookup("troupe://" + echo.runtimeAddress() + "/echo"));
        final Inbox inbox = new Inbox();
        try (Endpoint me = TroupeRuntime.get().endpoints().open("client", inbox)) {
            final int[] sizes = {0, 1, 100, 70_000, 4 << 20, 3, 1 << 20};
            for (int i = 0; i < sizes.length; i++) {
                final ByteBuffer payload =
                        ByteBuffer.allocateDirect(sizes[i] + 8).position(8);
                payload.put(pattern(sizes[i], i)).position(8);
                me.send(echo, ByteBuffer.wrap(new byte[] {(byte) i, 42}), payload, i % 2 == 1);
            }
            for (int i = 0; i < sizes.length; i++) {
                final Frame f = inbox.next();
                assertEquals(echo, f.from());
                assertArrayEquals(new byte[] {(byte) i, 42}, f.header(), "frame " + i + " in order");
                assertArrayEquals(pattern(sizes[i], i), f.payload(), "payload of frame " + i);
            }
        }
    }

    @Test
    void shouldDropFramesForAClosedEndpointAndKeepTheLink() throws Exception {
        final Node n = node("echo2");
        final EndpointAddress echo =
                ActiveObjects.newActive(EchoHost.class, null, n).open("echo");
        final Inbox inbox = new Inbox();
        try (Endpoint me = TroupeRuntime.get().endpoints().open("client2", inbox)) {
            me.send(
                    new EndpointAddress(echo.runtimeId(), echo.runtimeAddress(), echo.id() + 1000),
                    ByteBuffer.allocate(0),
                    ByteBuffer.wrap(new byte[] {1}),
                    false);
            me.send(echo, ByteBuffer.allocate(0), ByteBuffer.wrap(new byte[] {2}), false);
            assertArrayEquals(new byte[] {2}, inbox.next().payload());
            assertTrue(inbox.frames.isEmpty());
        }
        assertTrue(
                parent.jvms().log("echo2").contains("it is not open"),
                parent.jvms().log("echo2"));
    }

    @Test
    void shouldTellEndpointsOfALostRuntimeAndNeverSendOverANewLink() throws Exception {
        final Node n = node("echo3");
        final EndpointAddress echo =
                ActiveObjects.newActive(EchoHost.class, null, n).open("echo");
        final Inbox inbox = new Inbox();
        try (Endpoint me = TroupeRuntime.get().endpoints().open("client3", inbox)) {
            me.send(echo, ByteBuffer.allocate(0), ByteBuffer.wrap(new byte[] {7}), false);
            assertArrayEquals(new byte[] {7}, inbox.next().payload());
            final ProcessHandle nodeJvm =
                    ProcessHandle.of(TroupeRuntime.pidOf(echo.runtimeId())).orElseThrow();
            assertNotEquals(ProcessHandle.current().pid(), nodeJvm.pid());
            nodeJvm.destroyForcibly();
            final String lost = inbox.lost.poll(30, TimeUnit.SECONDS);
            assertNotNull(lost, "the endpoint was not told that the node's runtime is lost");
            assertTrue(lost.startsWith(echo.runtimeId() + ": "), lost);
            final PeerFailedException e = assertThrows(
                    PeerFailedException.class,
                    () -> me.send(echo, ByteBuffer.allocate(0), ByteBuffer.wrap(new byte[] {8}), false));
            assertTrue(e.getMessage().contains("not sent over a new one"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseAPayloadLargerThanThePeerAccepts() throws Exception {
        final Node n = node("echo4");
        final EndpointAddress echo =
                ActiveObjects.newActive(EchoHost.class, null, n).open("echo");
        try (Endpoint me = TroupeRuntime.get().endpoints().open("client4", new Inbox())) {
            final int max = parent.runtime().config().serialization().maxMessageBytes();
            final IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> me.send(echo, ByteBuffer.allocate(0), ByteBuffer.allocate(max), false));
            assertTrue(e.getMessage().contains("troupe.serialization.maxMessageBytes"), e.getMessage());
        }
    }

    /**
     * A second link to a runtime already linked (here a lookup that names it "localhost" where it announced
     * 127.0.0.1; two runtimes that first send to each other at once make one too) takes over the frames sent to
     * it from then on, while the frames sent before are still on the first link: the receiver reads both links
     * at once, and an endpoint's frames no longer arrive in the order they were sent. The echo sends a large
     * frame back over the first link, then a small one over the second, which overtakes it.
     */
    @Test
    void shouldKeepTheOrderOfAnEndpointsFramesWhenASecondLinkToItsRuntimeOpens() throws Exception {
        final Node n = node("echo5");
        final EndpointAddress echo =
                ActiveObjects.newActive(EchoHost.class, null, n).open("echo");
        final Inbox inbox = new Inbox();
        try (Endpoint me = TroupeRuntime.get().endpoints().open("client5", inbox)) {
            final String port =
                    echo.runtimeAddress().substring(echo.runtimeAddress().lastIndexOf(':') + 1);
            for (int round = 0; round < 5; round++) { // each lookup by that name makes one more link
                me.send(echo, ByteBuffer.wrap(new byte[] {0}), ByteBuffer.allocate(32 << 20), false);
                assertEquals(echo, TroupeRuntime.get().endpoints().lookup("troupe://localhost:" + port + "/echo"));
                me.send(echo, ByteBuffer.wrap(new byte[] {1}), ByteBuffer.allocate(1), false);
                final Frame first = inbox.next();
                final Frame second = inbox.next();
                assertArrayEquals(
                        new byte[] {0},
                        first.header(),
                        "round " + round + ": the echo's frames came in"
                                + " the order it sent them (first came a frame of " + first.payload().length
                                + " bytes)");
                assertArrayEquals(new byte[] {1}, second.header());
            }
        }
    }

    /**
     * This JVM and a node JVM stream large frames to each other, with small frames that the other side answers
     * from the thread that reads them. A reading thread that answers while its side's writer is in the middle of
     * a large frame waits for the outbound lock that writer holds, keeping the reading lock: the writer, which
     * reads while its socket is full, no longer can. Once both sides are there, each writer waits for room the
     * other will never make, for ever (the event loops, blocked, check no peer timeout either).
     */
    @Test
    void shouldStreamLargeFramesBothWaysWhileAnsweringSmallOnes() throws Exception {
        final Node n = node("stream7");
        final LargeStreamer there = ActiveObjects.newActive(LargeStreamer.class, null, n);
        final EndpointAddress far = there.open("far");
        final LargeStreamer here = new LargeStreamer();
        final EndpointAddress near = here.open("near");
        final int rounds = 100;
        there.stream(near, rounds, 8 << 20);
        here.stream(far, rounds, 8 << 20);
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while ((!here.streamed() || here.large() < rounds)
                && System.nanoTime() < until
                && here.failure().equals("null")) {
            Thread.sleep(10);
        }
        final String stuck = "after 60 s, this JVM wrote its frames: " + here.streamed() + ", and got "
                + here.large() + " of the node's " + rounds + " and " + here.answers() + " answers; the node: "
                + parent.jvms()
                        .log("stream7")
                        .lines()
                        .filter(l -> l.contains("Error") || l.contains("gone") || l.contains("\tat "))
                        .toList();
        if (!here.streamed() || here.large() < rounds) { // a deadlocked event loop would hang this runtime's end
            ProcessHandle.of(TroupeRuntime.pidOf(far.runtimeId())).ifPresent(ProcessHandle::destroyForcibly);
        }
        assertEquals("null", here.failure());
        assertTrue(here.streamed() && here.large() == rounds, stuck);
    }

    /**
     * One thread streams large frames to an echo, another small batched ones. The batched frames' flush, a task
     * of the event loop, waits for the outbound lock that each large write holds from start to end: the event
     * loop, blocked there one large frame after another, no longer reads the echoes. The echoing node queues
     * them without bound (each echo is queued by its event loop, to be flushed later) and dies out of direct
     * memory, or the link is dropped as silent. Every echo must come back, and the node's runtime stay.
     */
    @Test
    void shouldKeepALinkWhereLargeAndBatchedFramesStreamToAnEcho() throws Exception {
        final Node n = node("echo6");
        final EndpointAddress echo =
                ActiveObjects.newActive(EchoHost.class, null, n).open("echo");
        final AtomicInteger echoes = new AtomicInteger();
        final BlockingQueue<String> lost = new LinkedBlockingQueue<>();
        final int large = 200;
        final int small = 50_000;
        try (Endpoint me = TroupeRuntime.get().endpoints().open("client6", new EndpointHandler() {
            @Override
            public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
                echoes.incrementAndGet();
            }

            @Override
            public void runtimeLost(final String runtimeId, final String reason) {
                lost.add(reason);
            }
        })) {
            final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            final Thread bulk = Thread.ofPlatform().daemon().start(() -> {
                try {
                    final ByteBuffer payload = ByteBuffer.allocateDirect(4 << 20);
                    for (int i = 0; i < large && lost.isEmpty(); i++) {
                        me.send(echo, ByteBuffer.allocate(1), payload, false);
                    }
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            });
            final Thread batched = Thread.ofPlatform().daemon().start(() -> {
                try {
                    for (int i = 0; i < small && lost.isEmpty(); i++) {
                        me.send(echo, ByteBuffer.allocate(1), ByteBuffer.allocate(100), true);
                    }
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            });
            bulk.join(Duration.ofSeconds(60));
            batched.join(Duration.ofSeconds(60));
            final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (echoes.get() < large + small && lost.isEmpty() && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertTrue(
                    lost.isEmpty(),
                    "the node's runtime was lost (" + lost.peek() + ") after " + echoes.get()
                            + " of " + (large + small) + " echoes; its log: "
                            + parent.jvms()
                                    .log("echo6")
                                    .lines()
                                    .filter(l -> l.contains("gone"))
                                    .toList());
            assertTrue(failures.isEmpty(), "senders failed: " + failures);
            assertEquals(large + small, echoes.get());
        }
    }
}
