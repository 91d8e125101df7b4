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
import org.troupe.core.metrics.MetricsReport;

/**
 * The node JVMs' reported meters as meters of the launcher's registry, so that Prometheus and JMX serve them with
 * the launcher's own: each labelled with its JVM's {@code cluster}, {@code host}, {@code jvm} and {@code node}, each
 * reading the latest report, and removed when its JVM's reports stop (it was lost). Synced before each scrape and
 * each console update, on one thread at a time.
 */
final class ReportedMeters {
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
     * {@code names} the name of a runtime a {@code peer} tag gives the id of (itself if it has none).
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
            for (final MetricsReport.Sample s : r.samples()) {
                final Key key = new Key(s.name(), s.tags());
                final Registered known = meters.get(key);
                if (known != null) {
                    known.sample = s;
                } else {
                    final Registered added = register(s, jvm, names);
                    if (added != null) {
                        meters.put(key, added);
                    }
                }
            }
        }
        byRuntime.entrySet().removeIf(e -> {
            if (seen.contains(e.getKey())) {
                return false;
            }
            e.getValue().values().forEach(m -> registry.remove(m.meter));
            return true;
        });
    }

    private Registered register(
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
            case TIMER, LONG_TASK_TIMER ->
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
            default -> null; // distribution summaries and others: their counts would need their buckets
        };
        return r.meter == null ? null : r;
    }
}
