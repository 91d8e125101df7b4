package org.troupe.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.core.exceptions.TerminatedException;
import org.troupe.core.exceptions.TouchedAt;
import org.troupe.core.spi.Calls;
import org.troupe.core.spi.Outcome;
import org.troupe.core.spi.Spin;

/** What a user sees of failures: futures printed without waiting, the caller's line, one-way calls that throw. */
class FailureReportsTest {
    private static final Calls CALLS = TroupeRuntime.calls();

    public static class Sample {
        private double value;

        public Sample() {}

        public Sample(final double value) {
            this.value = value;
        }

        @Override
        public String toString() {
            return "Sample(" + value + ")";
        }
    }

    /** Latches by name: arguments are copies, so a latch itself cannot be passed to an active object. */
    private static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();

    public static class Worker {
        public Worker() {}

        public Sample sample(final int seed) {
            if (seed < 0) {
                throw new IllegalStateException("bad seed " + seed);
            }
            return new Sample(seed);
        }

        public Sample slow(final String gate) throws InterruptedException {
            GATES.get(gate).await();
            return new Sample(1);
        }

        public void failAfter(final String gate) throws InterruptedException {
            GATES.get(gate).await();
            throw new IllegalStateException("failed after " + gate);
        }

        public void setSeed(final int seed) {
            throw new IllegalArgumentException("no seed " + seed);
        }
    }

    @RegisterExtension
    final LocalRuntime local = LocalRuntime.allowingPackage("org.troupe.core");

    @Test
    void aFutureIsPrintedWithoutWaitingOrRethrowing() throws InterruptedException {
        final Worker w = ActiveObjects.newActive(Worker.class, new Object[0], local.node());
        final CountDownLatch gate = new CountDownLatch(1);
        GATES.put("printed", gate);
        final Sample pending = w.slow("printed");
        assertEquals("<awaited>", pending.toString(), "a pending future prints without waiting for its value");
        gate.countDown();
        assertEquals("Sample(1.0)", Futures.waitFor(pending).toString());
        assertEquals("Sample(1.0)", pending.toString(), "a resolved future prints its value");

        final Sample failed = w.sample(-3);
        Futures.waitForAll(List.of(failed));
        assertEquals(
                "<failed: java.lang.IllegalStateException: bad seed -3>",
                "" + failed,
                "a failed future prints its failure, and does not throw it");
    }

    @Test
    void aFailureRethrownWhereItsFutureIsTouchedShowsTheCallersLine() {
        final Worker w = ActiveObjects.newActive(Worker.class, new Object[0], local.node());
        final Sample failed = w.sample(-1);
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> touch(failed));
        assertEquals("bad seed -1", e.getMessage());
        assertEquals("sample", e.getStackTrace()[0].getMethodName(), "the callee's own frames, as before");
        final TouchedAt at = touchedAt(e);
        assertTrue(at.getMessage().startsWith("Worker.sample on Worker#"), at.getMessage());
        assertTrue(
                at.getMessage().contains("@troupe://")
                        && at.getMessage().contains("/" + local.node().name()),
                "the object and its node: " + at.getMessage());
        final StackTraceElement top = at.getStackTrace()[0];
        assertEquals(
                FailureReportsTest.class.getName() + ".touch",
                top.getClassName() + "." + top.getMethodName(),
                "the first frame is the caller's line, not the waiting machinery's: "
                        + Arrays.toString(at.getStackTrace()));

        assertThrows(IllegalStateException.class, () -> touch(failed));
        assertEquals(
                1,
                Arrays.stream(e.getSuppressed())
                        .filter(TouchedAt.class::isInstance)
                        .count(),
                "touched again at the same place: said once");
        for (int i = 0; i < 10; i++) {
            assertThrows(IllegalStateException.class, () -> Futures.waitFor(failed));
        }
        assertTrue(e.getSuppressed().length <= 4, "a future touched in a loop does not grow its failure for ever");
    }

    private static double touch(final Sample s) {
        return s.hashCode();
    }

    private static TouchedAt touchedAt(final Throwable e) {
        return Arrays.stream(e.getSuppressed())
                .filter(TouchedAt.class::isInstance)
                .map(TouchedAt.class::cast)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no TouchedAt in " + Arrays.toString(e.getSuppressed())));
    }

    @Test
    void aOneWayCallThatThrowsIsReportedToTheCallersListeners() throws InterruptedException {
        final LinkedBlockingQueue<OneWayFailure> reported = new LinkedBlockingQueue<>();
        try (Subscription s = ActiveObjects.onOneWayFailure(reported::add)) {
            final Worker w = ActiveObjects.newActive(Worker.class, new Object[0], local.node());
            w.setSeed(7);
            final OneWayFailure f = reported.poll(30, TimeUnit.SECONDS);
            assertTrue(f != null, "the failure reached the listener");
            assertTrue(
                    f.call().startsWith("Worker.setSeed on Worker#")
                            && f.call().endsWith("/" + local.node().name()),
                    f.call());
            assertInstanceOf(IllegalArgumentException.class, f.cause());
            assertEquals("no seed 7", f.cause().getMessage());
        }
    }

    @Test
    void aOneWayCallSentAcknowledgedSettlesOnceRunAndIsReportedWithItsRole() throws Exception {
        final LinkedBlockingQueue<OneWayFailure> reported = new LinkedBlockingQueue<>();
        try (Subscription s = ActiveObjects.onOneWayFailure(reported::add)) {
            final Worker w = ActiveObjects.newActive(Worker.class, new Object[0], local.node());
            final Method setSeed = Worker.class.getMethod("setSeed", int.class);
            final Outcome[] plain = CALLS.send(new Object[] {w}, setSeed, new Object[][] {{1}}, i -> "member 3 of 4");
            assertTrue(plain[0].isDone() && plain[0].failure() == null, "without acknowledgement: settled once sent");
            assertTrue(reported.poll(30, TimeUnit.SECONDS) != null);

            final CountDownLatch gate = new CountDownLatch(1);
            GATES.put("acked", gate);
            final Outcome[] acked = CALLS.sendAcknowledged(
                    new Object[] {w},
                    Worker.class.getMethod("failAfter", String.class),
                    new Object[][] {{"acked"}},
                    i -> "member 3 of 4");
            assertFalse(acked[0].isDone(), "settled once run, not once sent");
            gate.countDown();
            final IllegalStateException e = assertThrows(IllegalStateException.class, () -> acked[0].await(Spin.NONE));
            assertEquals("failed after acked", e.getMessage(), "the outcome is the method's failure");
            final OneWayFailure f = reported.poll(30, TimeUnit.SECONDS);
            assertTrue(f != null, "and, as it came after the call returned, it is reported as a one-way failure");
            assertTrue(
                    f.call().startsWith("Worker.failAfter on Worker#")
                            && f.call().endsWith("(member 3 of 4)"),
                    f.call());

            final Worker ended = ActiveObjects.newActive(Worker.class, new Object[0], local.node());
            ActiveObjects.terminate(ended);
            final Outcome[] refused =
                    CALLS.sendAcknowledged(new Object[] {ended}, setSeed, new Object[][] {{3}}, i -> "member 0 of 1");
            assertTrue(
                    refused[0].isDone() && refused[0].failure() instanceof TerminatedException,
                    "known when the call returns: the caller's to throw");
            assertInstanceOf(
                    Sample.class,
                    CALLS
                            .sendAcknowledged(
                                    new Object[] {w},
                                    Worker.class.getMethod("sample", int.class),
                                    new Object[][] {{5}},
                                    null)[0]
                            .await(Spin.NONE),
                    "a call with a result is as with send");
        }
        assertTrue(reported.isEmpty(), "and not also reported: " + reported);
    }

    @Test
    void aOneWayCallOnATerminatedObjectIsReportedToo() throws InterruptedException {
        final LinkedBlockingQueue<OneWayFailure> reported = new LinkedBlockingQueue<>();
        try (Subscription s = ActiveObjects.onOneWayFailure(reported::add)) {
            final Worker w = ActiveObjects.newActive(Worker.class, new Object[0], local.node());
            ActiveObjects.terminate(w);
            w.setSeed(1);
            final OneWayFailure f = reported.poll(30, TimeUnit.SECONDS);
            assertTrue(f != null, "the caller hears of a one-way call that was not served");
            assertTrue(f.call().startsWith("Worker.setSeed on Worker#"), f.call());
            assertInstanceOf(TerminatedException.class, f.cause());
        }
    }
}
