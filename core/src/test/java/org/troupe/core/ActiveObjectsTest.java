package org.troupe.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.core.exceptions.CallFailedException;
import org.troupe.core.exceptions.FutureTimeoutException;
import org.troupe.core.exceptions.TerminatedException;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.service.ActiveClass;
import org.troupe.core.service.CallMode;
import org.troupe.core.service.Immediate;
import org.troupe.serialization.SerializationConfig;
import org.troupe.serialization.SerializationException;

/** Active objects in one JVM: creation, the call modes, futures, copies, exceptions, termination. */
class ActiveObjectsTest {
    /** A result type that can be a future. */
    public static class Total {
        private int value;

        public Total() {}

        public Total(final int value) {
            this.value = value;
        }

        public int value() {
            return value;
        }
    }

    public static class Counter {
        private final List<String> log = Collections.synchronizedList(new ArrayList<>());
        private int count;
        private CountDownLatch gate;

        public Counter() {}

        public Counter(final int start) {
            this.count = start;
        }

        public void add(final int n) {
            count += n;
            log.add("add " + n);
        }

        public Total total() {
            return new Total(count);
        }

        public int count() {
            return count;
        }

        /** Blocks the body until the gate opens (gates are shared through a static map: latches cannot be copied). */
        public Total totalAfter(final String gate) {
            try {
                ENTERED.computeIfAbsent(gate, g -> new CountDownLatch(1)).countDown();
                GATES.get(gate).await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Total(count);
        }

        public CompletableFuture<Integer> countLater() {
            return CompletableFuture.completedFuture(count);
        }

        public Total fail(final String message) {
            throw new IllegalStateException(message);
        }

        public Total failChecked() throws IOException {
            throw new IOException("disk gone");
        }

        public int sizeOf(final List<Integer> list) {
            final int n = list.size();
            list.clear(); // the caller's list must not change
            return n;
        }

        public Total sumOf(final Total a, final Total b) {
            return new Total(a.value() + b.value()); // touches futures: waits for them
        }

        public Total addFrom(final Counter other) {
            return new Total(count + other.count());
        }

        @Immediate
        public int peekImmediately() {
            return log.size();
        }

        public List<String> log() {
            return new ArrayList<>(log);
        }

        @Override
        public String toString() {
            return "a counter";
        }
    }

    static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();
    static final Map<String, CountDownLatch> ENTERED = new ConcurrentHashMap<>();

    /** Waits until an active object is blocked at {@code gate}. */
    private static void entered(final String gate) throws InterruptedException {
        assertTrue(ENTERED.computeIfAbsent(gate, g -> new CountDownLatch(1)).await(30, TimeUnit.SECONDS));
    }

    private static String gate(final CountDownLatch latch) {
        final String name = "gate-" + UUID.randomUUID();
        GATES.put(name, latch);
        return name;
    }

    @RegisterExtension
    final LocalRuntime local = LocalRuntime.allowingPackage("org.troupe.core");

    @Test
    void shouldCreateAnActiveObjectWithTheConstructorThatTakesTheArguments() {
        final Counter c = ActiveObjects.newActive(Counter.class, new Object[] {5}, local.node());
        assertTrue(ActiveObjects.isActiveObject(c));
        assertEquals(5, c.count());
        final Counter d = ActiveObjects.newActive(Counter.class, null, local.node());
        assertEquals(0, d.count());
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> ActiveObjects.newActive(Counter.class, new Object[] {"five"}, local.node()));
        assertTrue(
                e.getMessage().contains("No public constructor")
                        && e.getMessage().contains("String"),
                e.getMessage());
    }

    /** Package-private: its public constructor cannot be called from Troupe's package. */
    static class Hidden {
        public Hidden() {}

        public int one() {
            return 1;
        }
    }

    /** Inner, not static: its constructor needs an enclosing instance. */
    public class Inner {
        public Inner() {}
    }

    public static final class Sealed {
        public Sealed() {}
    }

    @Test
    void shouldRefuseAClassWhoseConstructorTroupeCannotCallSayingWhatToChangeBeforeMakingAnything() {
        final int before = local.runtime().activeObjectCount();
        final IllegalArgumentException hidden = assertThrows(
                IllegalArgumentException.class, () -> ActiveObjects.newActive(Hidden.class, null, local.node()));
        assertEquals(
                Hidden.class.getName() + " cannot be an active object: its class must be public (Troupe calls its"
                        + " constructor from another package)",
                hidden.getMessage());
        final IllegalArgumentException inner = assertThrows(
                IllegalArgumentException.class, () -> ActiveObjects.newActive(Inner.class, null, local.node()));
        assertTrue(inner.getMessage().contains("declare it static"), inner.getMessage());
        class Local {}
        final IllegalArgumentException local = assertThrows(
                IllegalArgumentException.class, () -> ActiveObjects.newActive(Local.class, null, this.local.node()));
        assertTrue(local.getMessage().contains("local or anonymous"), local.getMessage());
        final IllegalArgumentException fin = assertThrows(
                IllegalArgumentException.class, () -> ActiveObjects.newActive(Sealed.class, null, this.local.node()));
        assertTrue(fin.getMessage().contains("neither final nor sealed"), fin.getMessage());
        assertEquals(before, this.local.runtime().activeObjectCount(), "nothing was made");
    }

    @Test
    void shouldServeOneWayCallsInOrderAndAnswerWithFutures() {
        final Counter c = ActiveObjects.newActive(Counter.class, new Object[0], local.node());
        for (int i = 1; i <= 100; i++) {
            c.add(i);
        }
        final Total t = c.total();
        assertEquals(5050, t.value());
        assertEquals(5050, Futures.waitFor(t).value());
        assertFalse(ActiveObjects.isActiveObject(Futures.waitFor(t)));
    }

    @Test
    void shouldReturnAFutureAtOnceAndWaitOnlyWhenItIsTouched() throws Exception {
        final Counter c = ActiveObjects.newActive(Counter.class, new Object[] {7}, local.node());
        final CountDownLatch latch = new CountDownLatch(1);
        final Total t = c.totalAfter(gate(latch)); // the body blocks; we must not
        assertTrue(Futures.isAwaited(t));
        assertThrows(FutureTimeoutException.class, () -> Futures.waitFor(t, Duration.ofMillis(50)));
        final CountDownLatch called = new CountDownLatch(1);
        Futures.onResolved(t, (v, e) -> called.countDown());
        latch.countDown();
        assertEquals(7, t.value());
        assertFalse(Futures.isAwaited(t));
        assertTrue(called.await(10, TimeUnit.SECONDS));
    }

    @Test
    void shouldGiveRealCompletableFuturesAndSynchronousResults() {
        final Counter c = ActiveObjects.newActive(Counter.class, new Object[] {3}, local.node());
        final CompletableFuture<Integer> later = c.countLater();
        assertEquals(3, later.join());
        assertEquals(3, c.count());
        final ActiveClass described = ActiveObjects.describe(Counter.class);
        assertEquals(CallMode.ONE_WAY, described.mode("add(int)"));
        assertEquals(CallMode.FUTURE, described.mode("total()"));
        assertEquals(CallMode.COMPLETION_STAGE, described.mode("countLater()"));
        assertEquals(CallMode.SYNCHRONOUS, described.mode("count()"));
        assertEquals(CallMode.IMMEDIATE, described.mode("peekImmediately()"));
        assertEquals(CallMode.FUTURE, described.mode("log()"), "a List can be a future");
        assertEquals(List.of("count()", "sizeOf(List)"), described.synchronousMethods());
    }

    @Test
    void shouldRefuseSynchronousCallsWhenConfiguredTo() {
        local.restart(CoreConfig.builder()
                .serialization(SerializationConfig.builder()
                        .allowPackage("org.troupe.core")
                        .build())
                .synchronousCalls(CoreConfig.SynchronousCalls.REFUSE)
                .build());
        final Counter c = ActiveObjects.newActive(Counter.class, new Object[0], local.node());
        final TroupeException e = assertThrows(TroupeException.class, c::count);
        assertTrue(e.getMessage().contains("troupe.core.synchronousCalls"), e.getMessage());
        assertEquals(0, c.total().value(), "futures still work");
    }

    @Test
    void shouldThrowTheCalleesExceptionWhereTheFutureIsTouched() throws Exception {
        final Counter c = ActiveObjects.newActive(Counter.class, new Object[0], local.node());
        final Total failed = c.fail("boom");
        final IllegalStateException e = assertThrows(IllegalStateException.class, failed::value);
        assertEquals("boom", e.getMessage());
        final Total checked = c.failChecked();
        final CallFailedException wrapped = assertThrows(CallFailedException.class, () -> Futures.waitFor(checked));
        assertInstanceOf(IOException.class, wrapped.getCause());
        assertEquals(IOException.class.getName(), wrapped.remoteClassName());
        assertEquals(0, c.count(), "the active object goes on serving");
    }

    @Test
    void shouldCopyMutableArgumentsButShareActiveObjectsAndFutures() {
        final Counter c = ActiveObjects.newActive(Counter.class, new Object[] {1}, local.node());
        final List<Integer> mine = new ArrayList<>(List.of(1, 2, 3));
        assertEquals(3, c.sizeOf(mine));
        assertEquals(List.of(1, 2, 3), mine, "the callee cleared its copy, not our list");
        final Counter other = ActiveObjects.newActive(Counter.class, new Object[] {10}, local.node());
        assertEquals(11, c.addFrom(other).value(), "an active object argument is the same active object");
        final CountDownLatch latch = new CountDownLatch(1);
        final Total pending = other.totalAfter(gate(latch));
        final Total sum = c.sumOf(pending, new Total(5)); // a future passed on before it is resolved
        assertTrue(Futures.isAwaited(sum));
        latch.countDown();
        assertEquals(15, sum.value());
    }

    public static class Identity {
        public boolean sameObject(final Object a, final Object b) {
            return a == b;
        }
    }

    /** A ring of objects (not a chain of one class: that is written as a loop). */
    public static class Ring {
        Object next;
    }

    @Test
    void shouldKeepSharedAndCyclicArgumentsExactlyWhenARemoteCallWould() {
        final Identity c = ActiveObjects.newActive(Identity.class, new Object[0], local.node());
        final Total shared = new Total(1);
        assertFalse(c.sameObject(shared, shared), "copied apart, as a remote call's message copies them by default");
        final Ring ring = new Ring();
        ring.next = ring;
        final SerializationException e = assertThrows(SerializationException.class, () -> c.sameObject(ring, null));
        assertTrue(e.getMessage().contains(SerializationConfig.REFERENCES_PROP_NAME), e.getMessage());

        local.restart(CoreConfig.builder()
                .serialization(SerializationConfig.builder()
                        .allowPackage("org.troupe.core")
                        .references(true)
                        .build())
                .build());
        final Identity tracking = ActiveObjects.newActive(Identity.class, new Object[0], local.node());
        assertTrue(tracking.sameObject(shared, shared), "one object, as a remote call tracking references keeps it");
        assertFalse(tracking.sameObject(ring, null), "a cycle is copied whole");
    }

    @Test
    void shouldRunImmediateMethodsWhileTheBodyIsBusy() throws Exception {
        final Counter c = ActiveObjects.newActive(Counter.class, new Object[0], local.node());
        c.add(1);
        final CountDownLatch latch = new CountDownLatch(1);
        final String gate = gate(latch);
        final Total blocked = c.totalAfter(gate);
        entered(gate);
        c.add(2); // queued behind the blocked request
        assertEquals(1, c.peekImmediately(), "served at once, beside the blocked request");
        latch.countDown();
        assertEquals(1, blocked.value());
        assertEquals(List.of("add 1", "add 2"), c.log());
    }

    @Test
    void shouldFailQueuedAndLaterCallsOnceTerminated() throws Exception {
        final Counter c = ActiveObjects.newActive(Counter.class, new Object[0], local.node());
        final CountDownLatch latch = new CountDownLatch(1);
        final String gate = gate(latch);
        final Total running = c.totalAfter(gate);
        entered(gate);
        final Total queued = c.total();
        ActiveObjects.terminate(c);
        latch.countDown();
        assertEquals(0, running.value(), "the request being served completes");
        assertThrows(TerminatedException.class, queued::value);
        assertThrows(TerminatedException.class, () -> c.total().value());
    }

    @Test
    void shouldWaitForAllAndForAny() {
        final Counter a = ActiveObjects.newActive(Counter.class, new Object[] {1}, local.node());
        final Counter b = ActiveObjects.newActive(Counter.class, new Object[] {2}, local.node());
        final CountDownLatch latch = new CountDownLatch(1);
        final Total slow = a.totalAfter(gate(latch));
        final Total fast = b.total();
        assertEquals(1, Futures.waitForAny(List.of(slow, fast)));
        latch.countDown();
        Futures.waitForAll(List.of(slow, fast));
        assertFalse(Futures.isAwaited(slow));
        assertEquals(0, Futures.waitForAny(List.of(slow, fast)));
    }

    @Test
    void shouldRegisterAndLookUpByName() {
        final Counter c = ActiveObjects.newActive(Counter.class, new Object[] {4}, local.node());
        ActiveObjects.register(c, "counter");
        assertEquals(4, ActiveObjects.lookup(Counter.class, "counter").count());
        assertThrows(IllegalArgumentException.class, () -> ActiveObjects.register(c, "counter"));
        final TroupeException e =
                assertThrows(TroupeException.class, () -> ActiveObjects.lookup(Counter.class, "nobody"));
        assertTrue(e.getMessage().contains("counter"), e.getMessage());
    }

    @Test
    void shouldTurnAnExistingObjectActive() {
        final Counter plain = new Counter(9);
        final Counter active = ActiveObjects.turnActive(plain, local.node());
        assertNotSame(plain, active);
        active.add(1);
        assertEquals(10, active.count());
        assertEquals("Counter#", active.toString().substring(0, 8), "the proxy names the active object");
    }

    @Test
    void shouldRefuseClassesThatCannotBeActive() {
        record Point(int x) {}
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> ActiveObjects.newActive(Point.class, new Object[] {1}, local.node()));
        assertTrue(e.getMessage().contains("final"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ActiveObjects.terminate("not active"));
    }

    @Test
    void shouldServeTenThousandActiveObjects() {
        final List<Counter> counters = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            counters.add(ActiveObjects.newActive(Counter.class, new Object[] {i}, local.node()));
        }
        final List<Total> totals = new ArrayList<>();
        for (final Counter c : counters) {
            totals.add(c.total());
        }
        long sum = 0;
        for (final Total t : totals) {
            sum += t.value();
        }
        assertEquals(10_000L * 9_999 / 2, sum);
        assertEquals(10_000, local.runtime().activeObjectCount());
    }

    @Test
    void shouldRefuseASecondRuntimeAndStopItsObjectsOnShutdown() {
        final TroupeRuntime ended = local.runtime();
        final Node node = local.node();
        assertThrows(
                TroupeException.class,
                () -> TroupeRuntime.start(CoreConfig.builder().build()));
        final Counter c = ActiveObjects.newActive(Counter.class, new Object[0], node);
        ended.shutdown();
        assertEquals(0, ended.activeObjectCount());
        assertThrows(TerminatedException.class, () -> c.total().value());
        assertThrows(TerminatedException.class, () -> ActiveObjects.newActive(Counter.class, null, node));
        final TroupeRuntime next = local.restart(CoreConfig.builder() // stopped after the test
                .serialization(SerializationConfig.builder()
                        .allowPackage("org.troupe.core")
                        .build())
                .build());
        final Counter d = ActiveObjects.newActive(Counter.class, new Object[] {2}, next.defaultNode());
        ended.shutdown(); // again: it must not touch the runtime that has the JVM's slot now
        assertSame(next, TroupeRuntime.get());
        assertEquals(2, d.count());
        assertEquals(1, next.activeObjectCount());
    }
}
