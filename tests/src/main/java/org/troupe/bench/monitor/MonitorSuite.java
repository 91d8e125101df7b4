package org.troupe.bench.monitor;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.troupe.bench.BenchFailure;
import org.troupe.bench.ResultSink;
import org.troupe.bench.Suite;
import org.troupe.config.TroupeSettings;
import org.troupe.core.ActiveObjects;
import org.troupe.core.CoreConfig;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;
import org.troupe.monitor.Monitor;
import org.troupe.monitor.MonitorSettings;
import org.troupe.serialization.SerializationConfig;

/**
 * {@code console-16}: 16 node JVMs of this host ({@code descriptors/local.xml}), each with an active object this
 * JVM calls all along, watched by the console. The CPU its own threads take (building the state, serving the page,
 * pushing the updates) is measured first with no page open, then with a headless Chromium showing the console
 * (an event-stream client where Chromium is not installed); the launcher's whole CPU and the browser's are given
 * beside it.
 */
public final class MonitorSuite implements Suite {
    static final String CONSOLE_16 = "console-16";
    private static final int JVMS = 16;
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Duration WAIT = Duration.ofMinutes(3);

    @Override
    public String name() {
        return "monitor";
    }

    @Override
    public String summary() {
        return "the console's own CPU on a run of 16 node JVMs, without and with a browser showing it";
    }

    @Override
    public List<String> cases() {
        return List.of(CONSOLE_16);
    }

    @Override
    public void run(final boolean quick, final List<String> cases, final ResultSink sink) throws BenchFailure {
        final Path descriptor = Path.of(System.getProperty("troupe.home", "."), "descriptors", "local.xml");
        final double seconds = quick ? 20 : 60;
        final TroupeRuntime runtime = TroupeRuntime.start(CoreConfig.builder(TroupeSettings.load())
                .serialization(SerializationConfig.builder()
                        .allowPackage(Counter.class.getPackageName())
                        .build())
                .build());
        final AtomicBoolean calling = new AtomicBoolean(true);
        Thread caller = null;
        Process browser = null;
        try (Deployment d = Deployment.load(
                                descriptor, Map.of("jvms", String.valueOf(JVMS), "vn", "workers", "heap", "128m"))
                        .start();
                Monitor monitor =
                        Monitor.start(runtime, new MonitorSettings("127.0.0.1", 0, Duration.ofSeconds(1), false))) {
            d.showIn(monitor);
            final List<Node> nodes = d.virtualNode("workers").waitForNodes(JVMS, WAIT);
            if (nodes.size() != JVMS) {
                throw new BenchFailure("the deployment gave " + nodes.size() + " nodes: " + d.failures());
            }
            final List<Counter> counters = new ArrayList<>();
            for (final Node n : nodes) {
                counters.add(ActiveObjects.newActive(Counter.class, new Object[0], n));
            }
            caller = Thread.ofPlatform().name("bench-calls").start(() -> {
                while (calling.get()) {
                    try {
                        counters.forEach(c -> c.add(1));
                        Thread.sleep(10);
                    } catch (InterruptedException | RuntimeException e) { // stopped, or the run is ending
                        return;
                    }
                }
            });
            Thread.sleep(5_000); // every node JVM has reported
            final double idle = consoleCpu(seconds / 2);
            final String kind;
            if (Files.isExecutable(CHROMIUM)) {
                browser = chromium(monitor.url());
                kind = "chromium";
            } else {
                browser = null;
                kind = "event-stream client";
                Thread.ofVirtual().start(() -> stream(monitor.url()));
            }
            Thread.sleep(5_000); // the page is up and drawing
            final long browserBefore = cpuNanos(browser);
            final long launcherBefore = processCpuNanos();
            final double console = consoleCpu(seconds);
            final double launcher = (processCpuNanos() - launcherBefore) / (seconds * 1e7);
            final double browserCpu = (cpuNanos(browser) - browserBefore) / (seconds * 1e7);
            final int stateBytes = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(monitor.url().replace("/?token=", "/api/state?token=")))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body()
                    .length();
            System.err.printf(
                    "monitor: console %.2f%% of a core with %s (%.2f%% without), launcher %.1f%%, browser %.1f%%%n",
                    console, kind, idle, launcher, browserCpu);
            calling.set(false); // before the deployment closes under the calls
            caller.join(10_000);
            sink.accept(new ConsoleFigure(JVMS, 1000, seconds, kind, console, idle, launcher, browserCpu, stateBytes));
        } catch (BenchFailure e) {
            throw e;
        } catch (Exception e) {
            throw new BenchFailure(CONSOLE_16 + ": " + e, e);
        } finally {
            calling.set(false);
            if (browser != null) {
                browser.descendants().forEach(ProcessHandle::destroyForcibly);
                browser.destroyForcibly();
            }
            if (caller != null) {
                try {
                    caller.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            runtime.shutdown();
        }
    }

    /** The CPU the console's threads take over {@code seconds}, in percent of one core. */
    private static double consoleCpu(final double seconds) throws InterruptedException {
        final long before = consoleThreadsNanos();
        Thread.sleep((long) (seconds * 1000));
        return (consoleThreadsNanos() - before) / (seconds * 1e7);
    }

    /** CPU time of the monitor's threads (its HTTP server's, which build and send the state). */
    private static long consoleThreadsNanos() {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (final ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("troupe-monitor")) {
                total += Math.max(0, threads.getThreadCpuTime(t.getThreadId()));
            }
        }
        return total;
    }

    private static long processCpuNanos() {
        return ProcessHandle.current()
                .info()
                .totalCpuDuration()
                .map(Duration::toNanos)
                .orElse(0L);
    }

    /** CPU time of {@code p} and what it started (the browser's processes), or 0 without one. */
    private static long cpuNanos(final Process p) {
        if (p == null) {
            return 0;
        }
        long total = p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
        for (final ProcessHandle h : p.descendants().toList()) {
            total += h.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
        }
        return total;
    }

    private static Process chromium(final String url) throws IOException {
        final Path profile = Files.createTempDirectory("troupe-bench-chromium");
        return new ProcessBuilder(
                        CHROMIUM.toString(),
                        "--headless=new",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-dev-shm-usage",
                        "--user-data-dir=" + profile,
                        "--window-size=1400,1800",
                        url)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    /** Reads the console's event stream as a page would, until the monitor stops. */
    private static void stream(final String url) {
        try (InputStream in = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url.replace("/?token=", "/api/events?token=")))
                                .build(),
                        HttpResponse.BodyHandlers.ofInputStream())
                .body()) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException | InterruptedException e) {
            // the monitor stopped
        }
    }
}
