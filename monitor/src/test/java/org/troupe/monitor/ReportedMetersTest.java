package org.troupe.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.troupe.core.metrics.MetricsReport;

/** Node JVMs' reports as launcher meters: labelled, kept up to date, gone with their JVM; and the state's ages. */
class ReportedMetersTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ReportedMeters reported = new ReportedMeters(registry);

    private static MetricsReport report(final String runtime, final double served, final long at) {
        return new MetricsReport(
                runtime,
                "h1",
                List.of("n-" + runtime),
                at,
                List.of(new MetricsReport.Sample(
                        "troupe.calls.served",
                        Meter.Type.COUNTER,
                        "",
                        "Requests served",
                        Map.of("node", "n-" + runtime, "class", "C"),
                        Map.of(Statistic.COUNT, served))));
    }

    private void sync(final List<MetricsReport> reports) {
        reported.sync(
                reports, r -> Map.of("cluster", "c", "jvm", "jvm-" + r.runtimeId(), "node", "x"), id -> "jvm-" + id);
    }

    @Test
    void reportsBecomeLabelledMetersThatFollowTheLatestAndGoWithTheirJvm() {
        sync(List.of(report("rt-1", 5, 0), report("rt-2", 7, 0)));
        assertEquals(
                5,
                registry.find("troupe.calls.served")
                        .tag("jvm", "jvm-rt-1")
                        .functionCounter()
                        .count());
        assertEquals(
                "n-rt-1",
                registry.find("troupe.calls.served")
                        .tag("jvm", "jvm-rt-1")
                        .functionCounter()
                        .getId()
                        .getTag("node"),
                "a meter's own node tag wins over the JVM's");
        sync(List.of(report("rt-1", 9, 1), report("rt-2", 7, 0)));
        assertEquals(
                9,
                registry.find("troupe.calls.served")
                        .tag("jvm", "jvm-rt-1")
                        .functionCounter()
                        .count());
        sync(List.of(report("rt-2", 8, 2))); // rt-1 lost: its reports stopped
        assertNull(registry.find("troupe.calls.served").tag("jvm", "jvm-rt-1").functionCounter());
        assertEquals(
                8,
                registry.find("troupe.calls.served")
                        .tag("jvm", "jvm-rt-2")
                        .functionCounter()
                        .count());
    }

    private static MetricsReport.Sample gauge(final String name, final Map<String, String> tags) {
        return new MetricsReport.Sample(name, Meter.Type.GAUGE, "", "", tags, Map.of(Statistic.VALUE, 1.0));
    }

    @Test
    void aMeterTheRegistriesCannotTakeIsLeftOutAndTheOthersServed() {
        final MetricsReport bad = new MetricsReport(
                "rt-1",
                "h1",
                List.of("n"),
                0,
                List.of(
                        gauge("", Map.of()),
                        gauge("app.clash", Map.of("a.b", "1", "a_b", "2")),
                        gauge("app\"quote", Map.of()),
                        gauge("app.good", Map.of("k", "v"))));
        sync(List.of(bad));
        assertEquals(1, registry.getMeters().size(), registry.getMeters().toString());
        assertEquals(1, registry.find("app.good").gauge().value());
        sync(List.of(bad)); // refused once, not tried again
        assertEquals(1, registry.getMeters().size());
    }

    @Test
    void aMeterAJvmNoLongerReportsGoesThoughTheJvmLives() {
        sync(List.of(new MetricsReport(
                "rt-1", "h1", List.of("n"), 0, List.of(gauge("app.a", Map.of()), gauge("app.b", Map.of())))));
        sync(List.of(new MetricsReport("rt-1", "h1", List.of("n"), 1, List.of(gauge("app.b", Map.of())))));
        assertNull(registry.find("app.a").gauge());
        assertEquals(1, registry.find("app.b").gauge().value());
    }

    @Test
    void aJvmSlowToReportShowsItsReportsAge() {
        final long now = System.currentTimeMillis();
        final String json = RunState.json(
                "t",
                true,
                List.of(new Entity("jvm", "workers-1", "registered", "", "rt-1", List.of())),
                List.of(report("rt-0", 0, now), report("rt-1", 3, now - 30_000)),
                List.of(),
                RunState.Controls.NONE,
                List.of());
        assertTrue(
                json.matches("(?s).*\"name\":\"workers-1\",\"host\":\"h1\",\"nodes\":\\[\"n-rt-1\"\\],"
                        + "\"ageMillis\":3[0-9]{4}.*"),
                json);
    }
}
