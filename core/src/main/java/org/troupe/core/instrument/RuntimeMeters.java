package org.troupe.core.instrument;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import java.util.function.ToDoubleFunction;
import org.troupe.core.metrics.Metrics;
import org.troupe.core.metrics.MetricsReport;

/**
 * One runtime's meters: the registry (a composite whose first registry keeps the values, so that they can be
 * reported; a launcher adds Prometheus and JMX registries beside it), the counters of each peer link and of each
 * active object class, and the reports of the runtimes that send theirs here. Off, it hands out counters that count
 * nothing and registers no meter.
 */
public final class RuntimeMeters implements Metrics {
    private final boolean enabled;
    private final CompositeMeterRegistry registry = new CompositeMeterRegistry();
    private final Map<String, Registered<LinkMeters>> links = new ConcurrentHashMap<>();
    private final Map<List<String>, ObjectMeters> objects = new ConcurrentHashMap<>();
    private final JvmGcMetrics gc;
    private volatile ReportCollector collector;

    /** Counters and the meters that read them, to remove together. */
    private record Registered<C>(C counters, List<Meter> meters) {}

    public RuntimeMeters(final boolean enabled, final IntSupplier liveActiveObjects) {
        this.enabled = enabled;
        registry.add(new SimpleMeterRegistry());
        gc = enabled ? new JvmGcMetrics() : null;
        if (enabled) {
            new JvmMemoryMetrics().bindTo(registry);
            gc.bindTo(registry);
            new JvmThreadMetrics().bindTo(registry);
            new ProcessorMetrics().bindTo(registry);
            Gauge.builder("troupe.activeobjects.live", liveActiveObjects, IntSupplier::getAsInt)
                    .description("Active objects alive in this runtime")
                    .register(registry);
        }
    }

    @Override
    public boolean enabled() {
        return enabled;
    }

    @Override
    public CompositeMeterRegistry registry() {
        return registry;
    }

    @Override
    public List<MetricsReport> reports() {
        final ReportCollector c = collector;
        return c == null ? List.of() : c.reports();
    }

    /** Keeps the reports that come to {@code collector} (once this runtime listens). */
    void collectWith(final ReportCollector c) {
        collector = c;
    }

    /** The counters of the link to runtime {@code peer}, registered on first use. */
    public LinkMeters link(final String peer) {
        if (!enabled) {
            return LinkMeters.OFF;
        }
        return links.computeIfAbsent(peer, p -> {
                    final LinkMeters m = new LinkMeters(true);
                    final Tags tags = Tags.of("peer", p);
                    final List<Meter> meters = new ArrayList<>();
                    meters.add(counter("troupe.link.frames.sent", tags, m.framesSent, null, "Frames sent to the peer"));
                    meters.add(counter("troupe.link.bytes.sent", tags, m.bytesSent, "bytes", "Bytes sent to the peer"));
                    meters.add(counter(
                            "troupe.link.frames.received",
                            tags,
                            m.framesReceived,
                            null,
                            "Frames received from the peer"));
                    meters.add(counter(
                            "troupe.link.bytes.received",
                            tags,
                            m.bytesReceived,
                            "bytes",
                            "Bytes received from the peer"));
                    meters.add(counter(
                            "troupe.calls.sent", tags, m.callsSent, null, "Calls made of the peer's active objects"));
                    meters.add(counter(
                            "troupe.calls.received", tags, m.callsReceived, null, "Calls the peer made of ours"));
                    meters.add(counter(
                            "troupe.futures.pushed",
                            tags,
                            m.futuresPushed,
                            null,
                            "Values of futures passed on to the peer, pushed to it"));
                    return new Registered<>(m, meters);
                })
                .counters();
    }

    /** The link to runtime {@code peer} ended: its meters go (a runtime that comes back has a new id). */
    public void forgetLink(final String peer) {
        final Registered<LinkMeters> r = links.remove(peer);
        if (r != null) {
            r.meters().forEach(registry::remove);
        }
    }

    /** The counters of the active objects of {@code type} on node {@code node}, registered on first use. */
    public ObjectMeters object(final String node, final Class<?> type) {
        if (!enabled) {
            return ObjectMeters.OFF;
        }
        return objects.computeIfAbsent(List.of(node, type.getName()), k -> {
            final ObjectMeters m = new ObjectMeters(true);
            final Tags tags = Tags.of("node", node, "class", type.getName());
            counter("troupe.calls.served", tags, m.served, null, "Requests the active objects served");
            counter("troupe.oneway.failures", tags, m.oneWayFailures, null, "One-way calls that failed");
            Gauge.builder("troupe.requests.queued", m.queued, LongAdder::sum)
                    .tags(tags)
                    .description("Requests waiting in the active objects' queues")
                    .register(registry);
            FunctionTimer.builder(
                            "troupe.requests.wait", m, o -> o.waits.sum(), o -> o.waitNanos.sum(), TimeUnit.NANOSECONDS)
                    .tags(tags)
                    .description("Time requests waited in the queues before being served")
                    .register(registry);
            return m;
        });
    }

    private Meter counter(
            final String name, final Tags tags, final LongAdder adder, final String unit, final String description) {
        final ToDoubleFunction<LongAdder> sum = LongAdder::sum;
        return FunctionCounter.builder(name, adder, sum)
                .tags(tags)
                .baseUnit(unit)
                .description(description)
                .register(registry);
    }

    /** Stops what watches the JVM and closes the registry. */
    public void close() {
        final ReportCollector c = collector;
        if (c != null) {
            c.close();
        }
        if (gc != null) {
            gc.close();
        }
        registry.close();
    }
}
