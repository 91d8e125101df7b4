package org.troupe.monitor;

import io.micrometer.core.instrument.Statistic;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.troupe.core.metrics.MetricsReport;

/**
 * The console's view of a run, as the JSON its page reads: the tree, one row per JVM (the launcher first) with
 * its load, heap and queues, the calls between JVMs, the active object classes, the applications' panels, the
 * controls and the failures.
 */
final class RunState {
    private RunState() {}

    /** The labels of each JVM of the tree, by runtime id: its name ({@code jvm}) and its launch ({@code cluster}). */
    static Map<String, Map<String, String>> jvmLabels(final List<Entity> tree) {
        final Map<String, Map<String, String>> labels = new TreeMap<>();
        collect(tree, "", labels);
        return labels;
    }

    private static void collect(
            final List<Entity> entities, final String cluster, final Map<String, Map<String, String>> labels) {
        for (final Entity e : entities) {
            final String c = e.kind().equals("launch") || e.kind().equals("cluster") ? e.name() : cluster;
            if (!e.runtimeId().isEmpty()) {
                final Map<String, String> l = new LinkedHashMap<>();
                l.put("cluster", c);
                l.put("jvm", e.name());
                labels.put(e.runtimeId(), l);
            }
            collect(e.children(), c, labels);
        }
    }

    /** The console's buttons: for the run, and beside each JVM of the tree. */
    record Controls(List<String> run, List<String> jvm) {
        static final Controls NONE = new Controls(List.of(), List.of());
    }

    static String json(
            final String title,
            final boolean metrics,
            final List<Entity> tree,
            final List<MetricsReport> reports,
            final List<Panel> panels,
            final Controls controls,
            final List<String[]> failures) {
        final long now = System.currentTimeMillis();
        final Map<String, Map<String, String>> labels = jvmLabels(tree);
        final Json j = new Json()
                .begin()
                .field("title", title)
                .field("time", now)
                .key("metrics")
                .value(metrics);
        j.key("tree").beginArray();
        tree.forEach(e -> entity(j, e));
        j.endArray();
        j.key("jvms").beginArray();
        for (int i = 0; i < reports.size(); i++) {
            final MetricsReport r = reports.get(i);
            final String name = i == 0 ? "launcher" : name(labels, r.runtimeId());
            j.begin()
                    .field("id", r.runtimeId())
                    .field("name", name)
                    .field("host", r.host())
                    .strings("nodes", r.nodes())
                    .field("ageMillis", now - r.receivedAtMillis())
                    .field("heapUsed", sum(r, "jvm.memory.used", Statistic.VALUE, t -> "heap".equals(t.get("area"))))
                    .field("heapMax", sum(r, "jvm.memory.max", Statistic.VALUE, t -> "heap".equals(t.get("area"))))
                    .field("cpu", sum(r, "process.cpu.usage", Statistic.VALUE, t -> true))
                    .field("load", sum(r, "system.load.average.1m", Statistic.VALUE, t -> true))
                    .field("gcPauseSeconds", sum(r, "jvm.gc.pause", Statistic.TOTAL_TIME, t -> true))
                    .field("threads", sum(r, "jvm.threads.live", Statistic.VALUE, t -> true))
                    .field("activeObjects", sum(r, "troupe.activeobjects.live", Statistic.VALUE, t -> true))
                    .field("served", sum(r, "troupe.calls.served", Statistic.COUNT, t -> true))
                    .field("queued", sum(r, "troupe.requests.queued", Statistic.VALUE, t -> true))
                    .field("bytesSent", sum(r, "troupe.link.bytes.sent", Statistic.COUNT, t -> true))
                    .field("bytesReceived", sum(r, "troupe.link.bytes.received", Statistic.COUNT, t -> true))
                    .end();
        }
        j.endArray();
        j.key("calls").beginArray();
        for (final MetricsReport r : reports) {
            for (final MetricsReport.Sample s : r.samples()) {
                if (s.name().equals("troupe.calls.sent") && s.tags().containsKey("peer")) {
                    j.begin()
                            .field("from", r.runtimeId())
                            .field("to", s.tags().get("peer"))
                            .field("count", s.value(Statistic.COUNT))
                            .end();
                }
            }
        }
        j.endArray();
        j.key("objects").beginArray();
        for (int i = 0; i < reports.size(); i++) {
            final MetricsReport r = reports.get(i);
            for (final MetricsReport.Sample s : r.samples()) {
                if (s.name().equals("troupe.calls.served")) {
                    final MetricsReport.Sample wait = r.find("troupe.requests.wait", s.tags());
                    final MetricsReport.Sample queued = r.find("troupe.requests.queued", s.tags());
                    final double waits = wait == null ? 0 : wait.value(Statistic.COUNT);
                    j.begin()
                            .field("jvm", i == 0 ? "launcher" : name(labels, r.runtimeId()))
                            .field("node", s.tags().getOrDefault("node", ""))
                            .field("class", s.tags().getOrDefault("class", ""))
                            .field("served", s.value(Statistic.COUNT))
                            .field("queued", queued == null ? 0 : queued.value(Statistic.VALUE))
                            .field("meanWaitMillis", waits == 0 ? 0 : 1e3 * wait.value(Statistic.TOTAL_TIME) / waits)
                            .end();
                }
            }
        }
        j.endArray();
        j.key("appMeters").beginArray();
        for (int i = 0; i < reports.size(); i++) {
            final MetricsReport r = reports.get(i);
            for (final MetricsReport.Sample s : r.samples()) {
                if (!MetricsReport.isSystemMeter(s.name())) {
                    j.begin()
                            .field("jvm", i == 0 ? "launcher" : name(labels, r.runtimeId()))
                            .field("name", s.name())
                            .field("unit", s.baseUnit())
                            .field("description", s.description());
                    j.key("tags").begin();
                    s.tags().forEach(j::field);
                    j.end().field("value", value(s)).end();
                }
            }
        }
        j.endArray();
        j.key("panels").beginArray();
        panels.forEach(p -> p.write(j));
        j.endArray();
        j.strings("controls", controls.run());
        j.strings("jvmControls", controls.jvm());
        j.key("failures").beginArray();
        for (final String[] f : failures) {
            j.beginArray().value(Double.parseDouble(f[0])).value(f[1]).endArray();
        }
        j.endArray();
        return j.end().toString();
    }

    /** A meter's one value: its count, its value, or its total time. */
    private static double value(final MetricsReport.Sample s) {
        for (final Statistic st : List.of(Statistic.VALUE, Statistic.COUNT, Statistic.TOTAL_TIME)) {
            final double v = s.value(st);
            if (!Double.isNaN(v)) {
                return v;
            }
        }
        return Double.NaN;
    }

    private static String name(final Map<String, Map<String, String>> labels, final String runtimeId) {
        final Map<String, String> l = labels.get(runtimeId);
        return l == null ? runtimeId : l.get("jvm");
    }

    private static void entity(final Json j, final Entity e) {
        j.begin()
                .field("kind", e.kind())
                .field("name", e.name())
                .field("state", e.state())
                .field("detail", e.detail())
                .field("runtimeId", e.runtimeId());
        j.key("children").beginArray();
        e.children().forEach(c -> entity(j, c));
        j.endArray().end();
    }

    /** The sum of {@code statistic} over the samples called {@code name} whose tags pass {@code tags}. */
    static double sum(
            final MetricsReport r,
            final String name,
            final Statistic statistic,
            final Predicate<Map<String, String>> tags) {
        double total = 0;
        for (final MetricsReport.Sample s : r.samples()) {
            if (s.name().equals(name) && tags.test(s.tags())) {
                final double v = s.value(statistic);
                if (!Double.isNaN(v)) {
                    total += v;
                }
            }
        }
        return total;
    }
}
