package org.troupe.monitor;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.util.HierarchicalNameMapper;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Subscription;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.metrics.MetricsReport;

/**
 * A launcher's window into its run: a Prometheus endpoint ({@code /metrics}) and JMX beans with the meters of the
 * launcher and of every JVM reporting to it, and a live web console. It listens on loopback by default, and every
 * request must carry its random token ({@code ?token=} or {@code Authorization: Bearer}); others get 403. What the
 * console shows besides the meters comes from its sources: the run's {@linkplain #tree tree} (a deployment's
 * launches, hosts, JVMs and nodes) and the applications' {@linkplain #panel panels}.
 *
 * <pre>{@code
 * try (Monitor monitor = Monitor.start(TroupeRuntime.get(), MonitorSettings.of(TroupeSettings.load(), 0))) {
 *     System.err.println("troupe: console at " + monitor.url());
 *     ...
 * }
 * }</pre>
 */
public final class Monitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Monitor.class);
    /** The failures the console keeps, newest last. */
    static final int MAX_FAILURES = 100;

    private final TroupeRuntime runtime;
    private final MonitorSettings settings;
    private final String token;
    private final PrometheusMeterRegistry prometheus;
    private final JmxMeterRegistry jmx;
    /**
     * Where every JVM's meters are published, the launcher's own as if it had reported them: Prometheus and JMX.
     * Not the runtime's registry, which a launcher reporting to another would send on.
     */
    private final CompositeMeterRegistry published = new CompositeMeterRegistry();

    private final ReportedMeters reported;
    private final Map<String, Panel> panels = new LinkedHashMap<>();
    private final Map<String, Runnable> controls = new LinkedHashMap<>();
    /** Controls of one JVM of the tree (kill), given its runtime id. */
    private final Map<String, Consumer<String>> jvmControls = new LinkedHashMap<>();

    private final Deque<String[]> failures = new ArrayDeque<>();
    private final Subscription oneWayFailures;
    private final Server server;
    private final String url;
    private volatile String title = "Troupe run";
    private volatile Supplier<List<Entity>> tree = List::of;

    private Monitor(final TroupeRuntime runtime, final MonitorSettings settings) throws Exception {
        this.runtime = runtime;
        this.settings = settings;
        final byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        this.token = HexFormat.of().formatHex(secret);
        this.prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        this.jmx = new JmxMeterRegistry(JmxConfig.DEFAULT, Clock.SYSTEM, HierarchicalNameMapper.DEFAULT);
        published.add(prometheus).add(jmx);
        this.reported = new ReportedMeters(published);
        this.oneWayFailures = ActiveObjects.onOneWayFailure(f -> failure(f + "\n" + trace(f.cause())));
        final QueuedThreadPool threads = new QueuedThreadPool(Console.MAX_STREAMS + 8, 2);
        threads.setName("troupe-monitor");
        threads.setDaemon(true);
        this.server = new Server(threads);
        final ServerConnector connector = new ServerConnector(server, 1, 1);
        connector.setHost(settings.bindAddress());
        connector.setPort(settings.port());
        server.addConnector(connector);
        server.setHandler(new Console(this, token));
        try {
            server.start();
        } catch (Exception e) { // nothing left behind: no subscription, no registry, no thread
            oneWayFailures.close();
            server.stop();
            published.close();
            jmx.close();
            prometheus.close();
            throw e;
        }
        final String shown = settings.bindAddress().contains(":")
                ? "[" + settings.bindAddress() + "]"
                : settings.bindAddress().equals("0.0.0.0") ? runtime.metrics().host() : settings.bindAddress();
        this.url = "http://" + shown + ":" + connector.getLocalPort() + "/?token=" + token;
    }

    /**
     * Starts the monitor of {@code runtime}'s run, as {@code settings} say.
     *
     * @throws IllegalArgumentException if it cannot listen where the settings say (the port is taken, the address
     *     is not this host's), naming the setting to change
     */
    public static Monitor start(final TroupeRuntime runtime, final MonitorSettings settings) {
        if (!runtime.metrics().enabled()) {
            LOG.warn("troupe.metrics.enabled is false: the console shows the run, but no meters");
        }
        try {
            return new Monitor(runtime, settings);
        } catch (Exception e) {
            throw new IllegalArgumentException(
                    "The monitor cannot listen on " + settings.bindAddress() + ":"
                            + settings.port() + " (" + e.getMessage()
                            + "): choose another port (--monitor=PORT) or address ("
                            + MonitorSettings.BIND_ADDRESS_PROP_NAME + ")",
                    e);
        }
    }

    /** The console's address, with its token: the one thing to print. */
    public String url() {
        return url;
    }

    /** The Prometheus endpoint's address, with the token as a query parameter. */
    public String metricsUrl() {
        return url.replace("/?token=", "/metrics?token=");
    }

    /** The title the console shows (the program, the descriptor). */
    public void title(final String t) {
        this.title = t;
    }

    /** What the console shows as the run's tree, asked at each update: keep it quick. */
    public void tree(final Supplier<List<Entity>> source) {
        this.tree = source;
    }

    /** The panel called {@code title}, made on first use. */
    public synchronized Panel panel(final String panelTitle) {
        return panels.computeIfAbsent(panelTitle, Panel::new);
    }

    /**
     * A button of the console that runs {@code action} (pause, resume, stop, ...): shown, and run when pressed,
     * only if {@code troupe.monitor.control} is true.
     */
    public synchronized void control(final String name, final Runnable action) {
        controls.put(name, action);
    }

    /**
     * A button beside each JVM of the tree that runs {@code action} with the JVM's runtime id (kill): shown, and run
     * when pressed, only if {@code troupe.monitor.control} is true.
     */
    public synchronized void jvmControl(final String name, final Consumer<String> action) {
        jvmControls.put(name, action);
    }

    /** Notes a failure (with its trace, if the text has one) for the console. */
    public void failure(final String text) {
        synchronized (failures) {
            failures.addLast(new String[] {String.valueOf(System.currentTimeMillis()), text});
            if (failures.size() > MAX_FAILURES) {
                failures.removeFirst();
            }
        }
    }

    // --- What the console asks ---

    MonitorSettings settings() {
        return settings;
    }

    /**
     * Runs the control {@code name}, of the JVM {@code runtimeId} if it is one of a JVM's (else null); false if
     * there is none, or controls are off.
     */
    boolean runControl(final String name, final String runtimeId) {
        final Runnable action;
        synchronized (this) {
            final Consumer<String> ofJvm = jvmControls.get(name);
            action = !settings.control()
                    ? null
                    : runtimeId == null ? controls.get(name) : ofJvm == null ? null : () -> ofJvm.accept(runtimeId);
        }
        if (action == null) {
            return false;
        }
        LOG.info("The console asked: {}{}", name, runtimeId == null ? "" : " " + runtimeId);
        action.run();
        return true;
    }

    /** The Prometheus text of every JVM's meters, brought up to date first. */
    String scrape() {
        publish(tree.get());
        return prometheus.scrape();
    }

    /** Publishes the meters of the launcher and of the JVMs reporting to it; returns their reports, the launcher's first. */
    private List<MetricsReport> publish(final List<Entity> entities) {
        final List<MetricsReport> reports = new ArrayList<>();
        reports.add(runtime.metrics().snapshot());
        reports.addAll(runtime.metrics().reports());
        final Map<String, Map<String, String>> labels = RunState.jvmLabels(entities);
        reported.sync(
                reports,
                r -> {
                    final Map<String, String> l = new LinkedHashMap<>(labels.getOrDefault(
                            r.runtimeId(),
                            r.runtimeId().equals(runtime.id())
                                    ? Map.of("cluster", "launcher", "jvm", "launcher")
                                    : Map.of("cluster", "", "jvm", r.runtimeId())));
                    l.put("host", r.host());
                    l.put("node", String.join(",", r.nodes()));
                    return l;
                },
                id -> {
                    final Map<String, String> l = labels.get(id);
                    return id.equals(runtime.id()) ? "launcher" : l == null ? id : l.get("jvm");
                });
        return reports;
    }

    /** The run's state as the console's page reads it (JSON). */
    String state() {
        final List<Entity> entities = tree.get();
        final List<MetricsReport> reports = publish(entities);
        final List<Panel> shownPanels;
        final List<String> shownControls;
        final List<String> shownJvmControls;
        synchronized (this) {
            shownPanels = new ArrayList<>(panels.values());
            shownControls = settings.control() ? new ArrayList<>(controls.keySet()) : List.of();
            shownJvmControls = settings.control() ? new ArrayList<>(jvmControls.keySet()) : List.of();
        }
        final List<String[]> shownFailures;
        synchronized (failures) {
            shownFailures = new ArrayList<>(failures);
        }
        return RunState.json(
                title,
                runtime.metrics().enabled(),
                entities,
                reports,
                shownPanels,
                new RunState.Controls(shownControls, shownJvmControls),
                shownFailures);
    }

    private static String trace(final Throwable t) {
        final StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    /** Stops serving and unpublishes the meters. */
    @Override
    public void close() {
        oneWayFailures.close();
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("The monitor's server did not stop cleanly: {}", e.toString());
        }
        published.close();
        jmx.close();
        prometheus.close();
    }
}
