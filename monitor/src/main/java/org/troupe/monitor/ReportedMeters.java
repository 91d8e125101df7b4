package org.troupe.monitor;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.metrics.MetricsReport;

/**
 * The node JVMs' reported meters as meters of the launcher's registry, so that Prometheus and JMX serve them with
 * the launcher's own: each labelled with its JVM's {@code cluster}, {@code host}, {@code jvm} and {@code node}, each
 * reading the latest report, and removed when its JVM's reports stop (it was lost). Synced before each scrape and
 * each console update, on one thread at a time.
 */
final class ReportedMeters {
    private static final Logger LOG = LoggerFactory.getLogger(ReportedMeters.class);
    private final MeterRegistry registry;
    /** Per runtime id: its meters, by their sample's name and tags. */
    private final Map<String, Map<Key, Registered>> byRuntime = new HashMap<>();

    private record Key(String name, Map<String, String> tags) {}

    /** A registered meter and the sample it reads now. */
    private static final class Registered {
        Meter meter;
        volatile MetricsReport.Sample sample;

        Registered(final MetricsReport.Sample sample) {
            this.sample = sample;
        }

        double value(final Statistic s) {
            return sample.value(s);
        }
    }

    ReportedMeters(final MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * Brings the registry to {@code reports}; {@code labels} gives each runtime's cluster, host, jvm and node, and
     * {@code names} the name of a runtime a {@code peer} tag gives the id of (itself if it has none). A meter a
     * runtime no longer reports goes, as do all of a runtime that no longer reports. A sample the registries cannot
     * take (an empty name, tags that clash once made Prometheus labels) is left out, said once.
     */
    synchronized void sync(
            final List<MetricsReport> reports,
            final Function<MetricsReport, Map<String, String>> labels,
            final UnaryOperator<String> names) {
        final Set<String> seen = new HashSet<>();
        for (final MetricsReport r : reports) {
            seen.add(r.runtimeId());
            final Map<Key, Registered> meters = byRuntime.computeIfAbsent(r.runtimeId(), k -> new HashMap<>());
            final Map<String, String> jvm = labels.apply(r);
            final Set<Key> reported = new HashSet<>();
            for (final MetricsReport.Sample s : r.samples()) {
                final Key key = new Key(s.name(), s.tags());
                reported.add(key);
                final Registered known = meters.get(key);
                if (known != null) {
                    known.sample = s;
                } else if (!refused.contains(key)) {
                    final Registered added = register(s, jvm, names, r.runtimeId());
                    if (added != null) {
                        meters.put(key, added);
                    }
                }
            }
            meters.entrySet().removeIf(e -> {
                if (reported.contains(e.getKey())) {
                    return false;
                }
                registry.remove(e.getValue().meter);
                return true;
            });
        }
        byRuntime.entrySet().removeIf(e -> {
            if (seen.contains(e.getKey())) {
                return false;
            }
            e.getValue().values().forEach(m -> registry.remove(m.meter));
            return true;
        });
    }

    /** Samples the registries refused: not tried again. Bounded, as a bad JVM may send many. */
    private final Set<Key> refused = new HashSet<>();

    private static final int MAX_REFUSED = 10_000;

    /** Whether Prometheus (and JMX) can take a meter of this name and these tags. */
    private static String problem(final MetricsReport.Sample s) {
        if (!s.name().matches("[A-Za-z_][A-Za-z0-9_.]*")) {
            return "its name is not one Prometheus takes";
        }
        final Set<String> keys = new HashSet<>();
        for (final String k : s.tags().keySet()) {
            final String label = k.replaceAll("[^A-Za-z0-9_]", "_");
            if (!label.matches("[A-Za-z_][A-Za-z0-9_]*") || label.startsWith("__") || !keys.add(label)) {
                return "its tag " + k + " is no Prometheus label, or clashes with another once made one";
            }
        }
        return null;
    }

    private Registered register(
            final MetricsReport.Sample s,
            final Map<String, String> jvm,
            final UnaryOperator<String> names,
            final String runtimeId) {
        final String problem = problem(s);
        if (problem != null) {
            refuse(s, runtimeId, problem);
            return null;
        }
        try {
            return registered(s, jvm, names);
        } catch (RuntimeException e) { // a registry's own check: this meter is left out, the others served
            refuse(s, runtimeId, e.getMessage());
            return null;
        }
    }

    private void refuse(final MetricsReport.Sample s, final String runtimeId, final String why) {
        if (refused.size() < MAX_REFUSED && refused.add(new Key(s.name(), s.tags()))) {
            LOG.warn("The meter '{}' {} of runtime {} is not published: {}", s.name(), s.tags(), runtimeId, why);
        }
    }

    private Registered registered(
            final MetricsReport.Sample s, final Map<String, String> jvm, final UnaryOperator<String> names) {
        Tags tags = Tags.empty();
        for (final Map.Entry<String, String> t : s.tags().entrySet()) {
            // a peer is named as its jvm label names it, so that the two can be matched
            tags = tags.and(t.getKey(), t.getKey().equals("peer") ? names.apply(t.getValue()) : t.getValue());
        }
        for (final Map.Entry<String, String> l : jvm.entrySet()) {
            if (!s.tags().containsKey(l.getKey())) { // a meter's own node tag says more than the JVM's nodes
                tags = tags.and(l.getKey(), l.getValue());
            }
        }
        final String unit = s.baseUnit().isEmpty() ? null : s.baseUnit();
        final Registered r = new Registered(s);
        r.meter = switch (s.type()) {
            case COUNTER ->
                FunctionCounter.builder(s.name(), r, h -> h.value(Statistic.COUNT))
                        .tags(tags)
                        .baseUnit(unit)
                        .description(s.description())
                        .register(registry);
            case TIMER ->
                FunctionTimer.builder(
                                s.name(),
                                r,
                                h -> (long) h.value(Statistic.COUNT),
                                h -> h.value(Statistic.TOTAL_TIME),
                                TimeUnit.SECONDS)
                        .tags(tags)
                        .description(s.description())
                        .register(registry);
            case GAUGE ->
                Gauge.builder(s.name(), r, h -> h.value(Statistic.VALUE))
                        .tags(tags)
                        .baseUnit(unit)
                        .description(s.description())
                        .register(registry);
            case LONG_TASK_TIMER ->
                Gauge.builder(s.name() + ".active", r, h -> h.value(Statistic.ACTIVE_TASKS))
                        .tags(tags)
                        .description(s.description())
                        .register(registry);
            default -> null; // distribution summaries and others: their counts would need their buckets
        };
        return r.meter == null ? null : r;
    }
}
