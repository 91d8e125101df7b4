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
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.metrics.Metrics;
import org.troupe.core.metrics.MetricsReport;

/**
 * One runtime's meters: the registry (a composite whose first registry keeps the values, so that they can be
 * reported; a launcher adds Prometheus and JMX registries beside it), the counters of each peer link and of each
 * active object class, and the reports of the runtimes that send theirs here. Off, it hands out counters that count
 * nothing and registers no meter.
 */
public final class RuntimeMeters implements Metrics {
    private static final Logger LOG = LoggerFactory.getLogger(RuntimeMeters.class);
    private final boolean enabled;
    private final CompositeMeterRegistry registry = new CompositeMeterRegistry();
    private final Map<String, Registered<LinkMeters>> links = new ConcurrentHashMap<>();
    private final Map<List<String>, ObjectMeters> objects = new ConcurrentHashMap<>();
    private final JvmGcMetrics gc;
    private volatile ReportCollector collector;
    private final String host = hostName();
    private final String runtimeId;
    private final Supplier<List<String>> nodes;
    /** The meters whose reading failed: said once each. */
    private final Set<String> unreadable = ConcurrentHashMap.newKeySet();

    /** Counters and the meters that read them, to remove together. */
    private record Registered<C>(C counters, List<Meter> meters) {}

    /**
     * @param runtimeId the id its reports carry
     * @param nodes its nodes' names now
     */
    public RuntimeMeters(
            final boolean enabled,
            final IntSupplier liveActiveObjects,
            final String runtimeId,
            final Supplier<List<String>> nodes) {
        this.enabled = enabled;
        this.runtimeId = runtimeId;
        this.nodes = nodes;
        registry.add(new SimpleMeterRegistry());
        gc = enabled ? new JvmGcMetrics() : null;
        if (enabled) {
            new JvmMemoryMetrics().bindTo(registry);
            gc.bindTo(registry);
            new JvmThreadMetrics().bindTo(registry);
            new ProcessorMetrics().bindTo(registry);
            // held strongly: the registry keeps only a weak reference, and nothing else holds this supplier
            Gauge.builder("troupe.activeobjects.live", liveActiveObjects, IntSupplier::getAsInt)
                    .strongReference(true)
                    .description("Active objects alive in this runtime")
                    .register(registry);
        }
    }

    @Override
    public boolean enabled() {
        return enabled;
    }

    @Override
    public String host() {
        return host;
    }

    /**
     * This runtime's meters now, as a report of its own: its nodes sorted, without the default one when it has
     * others (a node JVM's); Troupe's and the JVM's meters first (a report that cannot hold them all leaves out an
     * application's last); a meter whose reading fails left out, said once.
     */
    @Override
    public MetricsReport snapshot() {
        final List<MetricsReport.Sample> first = new ArrayList<>();
        final List<MetricsReport.Sample> then = new ArrayList<>();
        for (final Meter m : registry.getMeters()) {
            final MetricsReport.Sample s;
            try {
                s = MetricsReport.Sample.of(m);
            } catch (RuntimeException | Error e) {
                if (unreadable.add(m.getId().getName())) {
                    LOG.warn(
                            "The meter {} cannot be read, and is left out of the metrics reports: {}",
                            m.getId(),
                            e.toString());
                }
                continue;
            }
            (MetricsReport.isSystemMeter(s.name()) ? first : then).add(s);
        }
        first.addAll(then);
        final List<String> names = new ArrayList<>(nodes.get());
        if (names.size() > 1) {
            names.remove("default");
        }
        names.sort(null);
        return new MetricsReport(runtimeId, host, names, System.currentTimeMillis(), first);
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
                    final List<Meter> meters = List.of(
                            counter(
                                    "troupe.link.frames.sent",
                                    tags,
                                    m,
                                    LinkMeters::framesSent,
                                    null,
                                    "Frames sent to the peer"),
                            counter(
                                    "troupe.link.bytes.sent",
                                    tags,
                                    m,
                                    LinkMeters::bytesSent,
                                    "bytes",
                                    "Bytes sent to the peer"),
                            counter(
                                    "troupe.link.frames.received",
                                    tags,
                                    m,
                                    LinkMeters::framesReceived,
                                    null,
                                    "Frames received from the peer"),
                            counter(
                                    "troupe.link.bytes.received",
                                    tags,
                                    m,
                                    LinkMeters::bytesReceived,
                                    "bytes",
                                    "Bytes received from the peer"),
                            counter(
                                    "troupe.calls.sent",
                                    tags,
                                    m,
                                    LinkMeters::callsSent,
                                    null,
                                    "Calls made of the peer's active objects"),
                            counter(
                                    "troupe.calls.received",
                                    tags,
                                    m,
                                    LinkMeters::callsReceived,
                                    null,
                                    "Calls the peer made of ours"),
                            counter(
                                    "troupe.futures.pushed",
                                    tags,
                                    m,
                                    LinkMeters::pushed,
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
            counter(
                    "troupe.calls.served",
                    tags,
                    m,
                    ObjectMeters.slot(ObjectMeters.SERVED),
                    null,
                    "Requests the active objects served");
            counter(
                    "troupe.oneway.failures",
                    tags,
                    m,
                    ObjectMeters.slot(ObjectMeters.ONE_WAY_FAILURES),
                    null,
                    "One-way calls that failed");
            Gauge.builder("troupe.requests.queued", m, ObjectMeters::queuedNow)
                    .tags(tags)
                    .description("Requests waiting in the active objects' queues")
                    .register(registry);
            FunctionTimer.builder(
                            "troupe.requests.wait",
                            m,
                            o -> o.count(ObjectMeters.WAITS),
                            o -> o.count(ObjectMeters.WAIT_NANOS),
                            TimeUnit.NANOSECONDS)
                    .tags(tags)
                    .description("Time requests waited in the queues before being served (one request in "
                            + ObjectMeters.SAMPLE_EVERY + ", chosen at random, is timed)")
                    .register(registry);
            return m;
        });
    }

    private <T> Meter counter(
            final String name,
            final Tags tags,
            final T counts,
            final ToLongFunction<T> count,
            final String unit,
            final String description) {
        return FunctionCounter.builder(name, counts, c -> count.applyAsLong(c))
                .tags(tags)
                .baseUnit(unit)
                .description(description)
                .register(registry);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
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
