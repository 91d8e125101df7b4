package org.troupe.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Futures;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.tests.Await;
import org.troupe.tests.NodeJvms;
import org.troupe.tests.ParentRuntime;

/**
 * Node JVMs of this host, on the default transport: their links to this JVM go through shared memory, and a node
 * killed or frozen while frames stream through the rings is reported lost as over TCP. The build runs it again with
 * {@code troupe.core.transport=tcp} (tests/pom.xml), where the same holds over TCP.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SharedMemoryAcrossJvmsTest {
    @RegisterExtension
    static final ParentRuntime parent = ParentRuntime.withNodeJvms("n1");

    private static TroupeRuntime runtime;
    private static NodeJvms jvms;

    @BeforeAll
    static void nodes() {
        runtime = parent.runtime();
        jvms = parent.jvms();
    }

    /** The ring files a process has mapped: removed from their directory once both ends mapped them. */
    private static List<String> ringFilesMappedBy(final long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps")).stream()
                .filter(l -> l.contains("/troupe-") && l.endsWith("(deleted)"))
                .toList();
    }

    /** Shared memory on the default transport; none when this JVM's links stay on TCP (the build's TCP run). */
    @Test
    void aNodeJvmOfThisHostIsReachedThroughTheTransportTheSettingChooses() throws IOException {
        final Worker w = ActiveObjects.newActive(Worker.class, null, parent.node("n1"));
        final long nodePid = w.pid(); // a call answered over the link
        final boolean tcp = "tcp".equals(System.getProperty("troupe.core.transport"));
        assertEquals(!tcp, !ringFilesMappedBy(nodePid).isEmpty(), "the node JVM maps a ring file unless on TCP");
        assertEquals(
                !tcp,
                !ringFilesMappedBy(ProcessHandle.current().pid()).isEmpty(),
                "this JVM maps a ring file unless on TCP");
    }

    @Test
    void aNodeKilledWhileItStreamsLargeFramesIsReportedLostAndTheOthersServeOn() throws Exception {
        jvms.start("killed", runtime.address());
        final Node node = runtime.awaitNode("killed", Duration.ofSeconds(60));
        final LargeStreamer here = new LargeStreamer();
        final EndpointAddress to = here.open("sink-killed");
        final LargeStreamer there = ActiveObjects.newActive(LargeStreamer.class, null, node);
        there.open("source-killed");
        final Worker w = ActiveObjects.newActive(Worker.class, null, node);
        final long pid = w.pid();
        final Result pending = w.slow(1, 60_000);
        there.stream(to, 10_000, 3 << 20); // frames in pieces, several rings' worth
        Await.until(Duration.ofSeconds(30), () -> here.large() >= 2, "large frames arriving");
        ProcessHandle.of(pid).orElseThrow().destroyForcibly(); // SIGKILL, most likely in the middle of a frame
        final PeerFailedException e =
                assertThrows(PeerFailedException.class, () -> Futures.waitFor(pending, Duration.ofSeconds(30)));
        assertTrue(e.getMessage().contains(node.runtimeId()), e.getMessage());
        final Worker alive = ActiveObjects.newActive(Worker.class, null, parent.node("n1"));
        assertEquals(4, alive.compute(2).value());
    }

    @Test
    void aFrozenNodeWhoseRingIsFullIsReportedLostAndItsSenderIsReleased() throws Exception {
        jvms.start("frozen", runtime.address());
        final Node node = runtime.awaitNode("frozen", Duration.ofSeconds(60));
        final LargeStreamer there = ActiveObjects.newActive(LargeStreamer.class, null, node);
        final EndpointAddress to = there.open("sink-frozen");
        final Worker w = ActiveObjects.newActive(Worker.class, null, node);
        final long pid = w.pid();
        final Result pending = w.slow(1, 60_000);
        assertEquals(
                0,
                new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor());
        try {
            final LargeStreamer here = new LargeStreamer();
            here.open("source-frozen");
            here.stream(to, 1_000, 1 << 20); // fills the ring the frozen node no longer reads
            final PeerFailedException e =
                    assertThrows(PeerFailedException.class, () -> Futures.waitFor(pending, Duration.ofSeconds(30)));
            // its silence, or (over TCP, where the stream fills the socket first) its taking no data
            assertTrue(
                    e.getMessage().contains("nothing heard") || e.getMessage().contains("took no data"),
                    e.getMessage());
            Await.until(
                    Duration.ofSeconds(30),
                    () -> here.streamed() || !here.failure().equals("null"),
                    "the sender waiting for room in the frozen node's ring is released");
        } finally {
            new ProcessBuilder("kill", "-KILL", Long.toString(pid)).start().waitFor();
        }
    }
}
