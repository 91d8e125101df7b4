package org.troupe.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Statistic;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.core.metrics.MetricsReport;
import org.troupe.serialization.SerializationConfig;

/** What a runtime counts of its active objects, and its reports travelling to a runtime that keeps them. */
class MetricsTest {
    @RegisterExtension
    final LocalRuntime local = LocalRuntime.allowingPackage("org.troupe.core");

    public static class Gate {
        private final CountDownLatch open = new CountDownLatch(1);

        public Gate() {}

        public int pass(final int value) {
            return value;
        }

        public void note(final int value) {}

        public void block() throws InterruptedException {
            open.await(30, TimeUnit.SECONDS);
        }

        @org.troupe.core.service.Immediate
        public void open() {
            open.countDown();
        }

        public void fail() {
            throw new IllegalStateException("one-way failure, on purpose");
        }
    }

    private double counted(final String name, final String className) {
        final FunctionCounter c = registry()
                .find(name)
                .tags("node", TroupeRuntime.DEFAULT_NODE, "class", className)
                .functionCounter();
        assertNotNull(c, name + " for " + className + " is registered");
        return c.count();
    }

    private MeterRegistry registry() {
        return local.runtime().metrics().registry();
    }

    @Test
    void servedCallsAreCountedPerNodeAndClass() {
        final Gate gate = ActiveObjects.newActive(Gate.class, null, local.node());
        for (int i = 0; i < 400; i++) {
            assertEquals(i, gate.pass(i));
        }
        assertEquals(400, counted("troupe.calls.served", Gate.class.getName()));
        final FunctionTimer wait = registry()
                .find("troupe.requests.wait")
                .tag("class", Gate.class.getName())
                .functionTimer();
        // one request in 16 is timed, at random: none of 400 would happen once in 10^11 runs
        assertTrue(wait.count() > 0 && wait.count() < 400, "some requests' waits are timed: " + wait.count());
        assertTrue(wait.totalTime(TimeUnit.NANOSECONDS) > 0);
        System.gc(); // the gauge's supplier must survive a collection
        assertEquals(1, registry().find("troupe.activeobjects.live").gauge().value());
    }

    @Test
    void requestsWaitingBehindABusyOneAreShownQueued() throws Exception {
        final Gate gate = ActiveObjects.newActive(Gate.class, null, local.node());
        gate.block();
        for (int i = 0; i < 3; i++) {
            gate.note(i);
        }
        final Gauge queued = registry()
                .find("troupe.requests.queued")
                .tag("class", Gate.class.getName())
                .gauge();
        awaitValue(queued, 3);
        gate.open();
        awaitValue(queued, 0);
    }

    @Test
    void failedOneWayCallsAreCounted() throws Exception {
        final Gate gate = ActiveObjects.newActive(Gate.class, null, local.node());
        gate.fail();
        gate.pass(1); // served after the failure: the failure is counted by then
        assertEquals(1, counted("troupe.oneway.failures", Gate.class.getName()));
    }

    @Test
    void aRuntimeWithMetricsOffRegistersNoTroupeMeter() {
        local.restart(CoreConfig.builder()
                .serialization(SerializationConfig.builder()
                        .allowPackage("org.troupe.core")
                        .build())
                .metrics(false)
                .build());
        final Gate gate = ActiveObjects.newActive(Gate.class, null, local.node());
        assertEquals(2, gate.pass(2));
        assertFalse(local.runtime().metrics().enabled());
        assertTrue(
                registry().getMeters().isEmpty(),
                () -> "meters: " + names(registry().getMeters()));
    }

    @Test
    void aReportSentToARuntimeThatListensIsKeptThere() throws Exception {
        local.restart(CoreConfig.builder()
                .serialization(SerializationConfig.builder()
                        .allowPackage("org.troupe.core")
                        .build())
                .metricsReport(Duration.ofMillis(100))
                .build());
        final TroupeRuntime runtime = local.runtime();
        final String at = runtime.listen();
        final Gate gate = ActiveObjects.newActive(Gate.class, null, local.node());
        gate.pass(1);
        runtime.reportMetricsTo(at); // to itself: the same endpoint a launcher opens
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        MetricsReport report = null;
        while (System.nanoTime() < deadline) {
            final List<MetricsReport> reports = runtime.metrics().reports();
            if (!reports.isEmpty()
                    && reports.get(0).find("troupe.calls.served", Map.of("class", Gate.class.getName())) != null) {
                report = reports.get(0);
                break;
            }
            Thread.sleep(20);
        }
        assertNotNull(report, "a report came within 30 s");
        assertEquals(runtime.id(), report.runtimeId());
        assertEquals(List.of(TroupeRuntime.DEFAULT_NODE), report.nodes());
        assertEquals(
                1,
                report.find("troupe.calls.served", Map.of("class", Gate.class.getName()))
                        .value(Statistic.COUNT));
        assertNotNull(report.find("jvm.memory.used", Map.of("area", "heap")), "the JVM's meters are reported too");
        assertNull(report.find("troupe.calls.served", Map.of("class", "no.such.Class")));
    }

    private static void awaitValue(final Gauge gauge, final double value) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (gauge.value() != value && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(value, gauge.value());
    }

    private static List<String> names(final List<Meter> meters) {
        return meters.stream().map(m -> m.getId().getName()).toList();
    }
}
