package org.troupe.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
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
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;
import org.troupe.core.transport.tcp.TcpSettings;
import org.troupe.core.transport.tcp.TcpTransport;
import org.troupe.tests.NodeJvms;
import org.troupe.tests.ParentRuntime;

/** Active objects across three JVMs on this machine: this test's and two node JVMs it starts. */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RemoteActiveObjectsTest {
    @RegisterExtension
    static final ParentRuntime parent = ParentRuntime.withNodeJvms("n1", "n2");

    private static TroupeRuntime runtime;
    private static NodeJvms jvms;
    private static Node n1;
    private static Node n2;

    @BeforeAll
    static void nodes() {
        runtime = parent.runtime();
        jvms = parent.jvms();
        n1 = parent.node("n1");
        n2 = parent.node("n2");
    }

    private static long myPid() {
        return ProcessHandle.current().pid();
    }

    @Test
    void shouldCreateAnActiveObjectInAnotherJvmAndCallIt() {
        final Worker w = ActiveObjects.newActive(Worker.class, new Object[] {10}, n1);
        assertNotEquals(myPid(), w.pid(), "the object lives in the node's JVM");
        for (int i = 1; i <= 100; i++) {
            w.add(i); // one-way, in order
        }
        final Result total = w.total();
        assertEquals(10 + 5050, total.value());
        assertEquals(w.pid(), total.pid());
        assertTrue(w.toString().contains("troupe://"), w.toString());
    }

    @Test
    void shouldReturnFuturesAtOnceAndPassThemOnBeforeTheyAreResolved() {
        final Worker a = ActiveObjects.newActive(Worker.class, null, n1);
        final Worker b = ActiveObjects.newActive(Worker.class, null, n2);
        final Result slow = a.slow(40, 500); // resolved in n1, in half a second
        assertTrue(Futures.isAwaited(slow));
        // Through three JVMs: the future of n1's answer goes from here to n2 before it exists.
        final Result sum = b.sum(slow, new Result(2, 0));
        assertEquals(42, sum.value());
        assertEquals(b.pid(), sum.pid());
        final Result relayed = b.relay(a, 7); // n2 asks n1 and answers with n1's future
        assertEquals(49, relayed.value());
        assertEquals(a.pid(), relayed.pid());
    }

    /**
     * A callback runs when the reply is read, on the thread that read it; it may still call the same peer and wait
     * for the answer, which that thread would otherwise be the one to read.
     */
    @Test
    void shouldLetAResolvedCallbackCallThePeerThatAnswered() throws Exception {
        final Worker w = ActiveObjects.newActive(Worker.class, null, n1);
        final long pid = w.pid();
        final CompletableFuture<Long> seen = new CompletableFuture<>();
        final Result slow = w.slow(40, 200);
        Futures.onResolved(slow, (value, failure) -> {
            try {
                seen.complete(value.value() + w.pid()); // a synchronous call to n1, from the callback
            } catch (RuntimeException e) {
                seen.completeExceptionally(e);
            }
        });
        assertEquals(40 + pid, seen.get(30, TimeUnit.SECONDS));
        final CompletableFuture<Long> chained = new CompletableFuture<>();
        w.slowFuture(2, 100).thenAccept(v -> chained.complete(v + w.pid())); // a CompletableFuture, the same way
        assertEquals(2 + pid, chained.get(30, TimeUnit.SECONDS));
    }

    @Test
    void shouldThrowTheRemoteExceptionWithTheRemoteStackTrace() {
        final Worker w = ActiveObjects.newActive(Worker.class, null, n2);
        final Result failed = w.fail("boom");
        final IllegalStateException e = assertThrows(IllegalStateException.class, failed::value);
        assertEquals("boom", e.getMessage());
        assertTrue(
                Arrays.stream(e.getStackTrace())
                        .anyMatch(f -> f.getMethodName().equals("fail")
                                && f.getClassName().equals(Worker.class.getName())),
                Arrays.toString(e.getStackTrace()));
        assertEquals(3, w.compute(3).value() / 3, "and the object goes on serving");
    }

    /**
     * A node JVM runs out of heap reading a reply (70 MiB, with 120 of its 256 MiB held): its call ends with that
     * failure, passed back here, rather than waiting for ever, and the node goes on serving.
     */
    @Test
    void aCallWhoseReplyItsJvmCannotHoldEndsWithThatFailure() {
        final Worker caller = ActiveObjects.newActive(Worker.class, null, n1);
        final Worker answerer = ActiveObjects.newActive(Worker.class, null, n2);
        final RuntimeException e = assertThrows(RuntimeException.class, () -> caller.lengthFrom(answerer, 70, 120));
        assertTrue(
                e.getMessage().contains("Could not read the outcome of")
                        && e.getMessage().contains("OutOfMemoryError"),
                e.getMessage());
        assertEquals(3, caller.compute(3).value() / 3, "and the node goes on serving");
    }

    @Test
    void shouldServeImmediateMethodsWhileARequestRuns() {
        final Worker w = ActiveObjects.newActive(Worker.class, null, n1);
        w.add(1);
        assertEquals(1, w.total().value()); // served: the count below is known
        final Result slow = w.slow(1, 2_000);
        assertEquals(2, w.served(), "answered beside the slow request");
        assertTrue(Futures.isAwaited(slow));
        assertEquals(1, slow.value());
    }

    @Test
    void shouldLookUpARegisteredObjectByUrl() {
        final Worker w = ActiveObjects.newActive(Worker.class, new Object[] {5}, runtime.defaultNode());
        ActiveObjects.register(w, "here");
        final Worker viaN1 = ActiveObjects.newActive(Worker.class, null, n1);
        // n1 gets a proxy of our object through a call, and uses it: a call back into this JVM.
        assertEquals(25, viaN1.relay(w, 5).value());
        assertEquals(myPid(), viaN1.relay(w, 5).pid());
        assertEquals(5, ActiveObjects.lookup(Worker.class, "here").total().value());
    }

    @Test
    void shouldFailFuturesOfAKilledJvmInTimeAndKeepServingTheOthers() throws Exception {
        jvms.start("victim", runtime.address());
        final Node victim = runtime.awaitNode("victim", Duration.ofSeconds(60));
        final Worker doomed = ActiveObjects.newActive(Worker.class, null, victim);
        final long pid = doomed.pid();
        final Result pending = doomed.slow(1, 60_000);
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        // In time: the peer's failure, not the wait's own timeout (a FutureTimeoutException), ends the wait.
        final PeerFailedException e =
                assertThrows(PeerFailedException.class, () -> Futures.waitFor(pending, Duration.ofSeconds(10)));
        assertTrue(e.getMessage().contains(victim.runtimeId()), e.getMessage());
        assertThrows(PeerFailedException.class, () -> doomed.compute(1).value(), "later calls fail too");
        final Worker alive = ActiveObjects.newActive(Worker.class, null, n1);
        assertEquals(4, alive.compute(2).value());
    }

    @Test
    void shouldFailFuturesOfAFrozenJvmWhenItsHeartbeatsStop() throws Exception {
        jvms.start("frozen", runtime.address());
        final Node frozen = runtime.awaitNode("frozen", Duration.ofSeconds(60));
        final Worker w = ActiveObjects.newActive(Worker.class, null, frozen);
        final long pid = w.pid();
        final Result pending = w.slow(1, 30_000);
        final Process stop = new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start();
        assertEquals(0, stop.waitFor());
        try {
            final PeerFailedException e =
                    assertThrows(PeerFailedException.class, () -> Futures.waitFor(pending, Duration.ofSeconds(10)));
            assertTrue(e.getMessage().contains("nothing heard"), e.getMessage());
        } finally {
            new ProcessBuilder("kill", "-KILL", Long.toString(pid)).start().waitFor();
        }
    }

    @Test
    void shouldRefuseAPeerWithTheWrongSecret() throws Exception {
        try (TcpTransport stranger = new TcpTransport(
                "stranger",
                "not-the-secret".getBytes(StandardCharsets.UTF_8),
                new TcpSettings("127.0.0.1", 0, Duration.ofSeconds(1), Duration.ofSeconds(4), 1 << 20))) {
            final IllegalStateException e = assertThrows(
                    IllegalStateException.class,
                    () -> stranger.connect(
                            runtime.address(),
                            "",
                            new LinkHandler() {
                                @Override
                                public void opened(final Link link) {}

                                @Override
                                public void received(final Link link, final byte[] f, final int o, final int n) {}

                                @Override
                                public void closed(final Link link, final String reason) {}
                            },
                            Duration.ofSeconds(5)));
            assertTrue(e.getMessage().contains("secret"), e.getMessage());
        }
        final Process impostor = jvms.start("impostor", runtime.address(), "a-wrong-secret-of-the-right-length");
        assertTrue(impostor.waitFor(60, TimeUnit.SECONDS), "a node that cannot register exits");
        assertEquals(2, impostor.exitValue(), jvms.log("impostor"));
        assertThrows(TroupeException.class, () -> runtime.awaitNode("impostor", Duration.ofMillis(100)));
    }

    @Test
    void shouldEndANodeJvmWhoseParentIsGone() throws Exception {
        jvms.start("middle", runtime.address());
        final Node middle = runtime.awaitNode("middle", Duration.ofSeconds(60));
        final Process leaf = jvms.start("leaf", middle.address());
        // The leaf registers with the middle JVM; the middle one dies; the leaf must exit by itself.
        final long middlePid =
                ActiveObjects.newActive(Worker.class, null, middle).pid();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!jvms.log("leaf").contains("registered with") && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(
                jvms.log("leaf").contains("registered with") && leaf.isAlive(),
                "the leaf registered and runs while its parent does: " + jvms.log("leaf"));
        ProcessHandle.of(middlePid).orElseThrow().destroyForcibly();
        assertTrue(leaf.waitFor(30, TimeUnit.SECONDS), "the leaf exits on its own: " + jvms.log("leaf"));
    }
}
