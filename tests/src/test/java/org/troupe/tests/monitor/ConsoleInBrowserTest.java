package org.troupe.tests.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;
import org.troupe.apps.nozzle.Nozzle;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.VirtualNode;
import org.troupe.groups.Groups;
import org.troupe.monitor.Monitor;
import org.troupe.monitor.MonitorSettings;
import org.troupe.tests.ParentRuntime;
import org.troupe.tests.core.Worker;
import org.troupe.tests.jem3d.Jem3dTesting;
import org.troupe.tests.mpi.MpjRunCommand;

/**
 * The console as a user sees it, in a real headless Chromium: a deployment of three node JVMs whose active objects
 * are called, one of them killed; a Jem3D run; an MPI job of JVMs. The page's DOM is read as it updates, the
 * Prometheus endpoint is scraped during the run, and a screenshot of each is saved among the tests' output.
 */
class ConsoleInBrowserTest {
    private static final Path LOCAL = Path.of("../descriptors/local.xml");
    private static final Duration WAIT = Duration.ofMinutes(2);
    /** How long the page may take to show what changed: a report (2 s) and an update (0.3 s), on a busy host. */
    private static final Duration SHOWN = Duration.ofSeconds(60);

    @RegisterExtension
    static final ParentRuntime parent = new ParentRuntime();

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(final String url) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The name of the JVM that holds {@code node}, as its node's name carries it ({@code workers-2}). */
    private static String jvmName(final Node node) {
        final Matcher m = Pattern.compile(".*\\.(workers-[0-9]+)-[0-9]+").matcher(node.name());
        assertTrue(m.matches(), "the node's name carries its JVM's: " + node.name());
        return m.group(1);
    }

    private static long number(final String text) {
        return text.isBlank() ? -1 : Long.parseLong(text.strip());
    }

    @Test
    void aDeploymentsJvmsObjectsCallsAndALostJvmShowLiveAndOnlyWithTheToken() throws Exception {
        try (Browser browser = Browser.open();
                Deployment d = Deployment.load(LOCAL, Map.of("jvms", "3")).start();
                Monitor monitor = Monitor.start(
                        parent.runtime(), new MonitorSettings("127.0.0.1", 0, Duration.ofMillis(300), false))) {
            d.showIn(monitor);
            final VirtualNode vn = d.virtualNode("workers");
            final List<Node> nodes = vn.waitForNodes(3, WAIT);
            assertEquals(3, nodes.size(), d.progress());
            final Worker group = Groups.newGroup(Worker.class, new Object[][] {{}, {}, {}}, nodes.toArray(new Node[0]));
            final AtomicBoolean calling = new AtomicBoolean(true);
            final Thread caller = Thread.ofPlatform().name("console-test-calls").start(() -> {
                for (int i = 0; i < 100_000 && calling.get(); i++) { // bounded, and stopped by the test
                    try {
                        group.add(1);
                        Thread.sleep(10);
                    } catch (RuntimeException e) {
                        // a member's JVM was killed: the others go on being called
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            try {
                browser.get(monitor.url());
                browser.await(
                        SHOWN,
                        "the launcher and 3 node JVMs",
                        b -> browser.all("#jvms tbody tr").size() == 4);
                for (final Node n : nodes) {
                    browser.await(
                            SHOWN,
                            "the tree's JVM " + jvmName(n),
                            b -> !browser.all("li[data-kind='jvm'][data-name='" + jvmName(n)
                                            + "'][data-state='registered']")
                                    .isEmpty());
                }
                browser.await(
                        SHOWN,
                        "a Worker on each node JVM",
                        b -> browser.all("#objects tr[data-class='" + Worker.class.getName() + "']")
                                        .size()
                                == 3);
                final String served = "#jvms tr[data-runtime='" + nodes.get(1).runtimeId() + "'] td.served";
                final long before = browser.await(SHOWN, "calls served", b -> {
                    final long n = number(browser.text(served));
                    return n > 0 ? n : null;
                });
                browser.await(
                        SHOWN, "the calls served growing past " + before, b -> number(browser.text(served)) > before);

                final String objects = "#jvms tr[data-runtime='" + nodes.get(1).runtimeId() + "'] td.objects";
                browser.await(
                        SHOWN,
                        "the node JVM's one live active object",
                        b -> browser.text(objects).equals("1"));
                prometheusHasTheReadmesMetersLabelled(monitor, nodes.get(1));

                final Node killed = nodes.get(0);
                ProcessHandle.of(TroupeRuntime.pidOf(killed.runtimeId())).ifPresent(ProcessHandle::destroyForcibly);
                final String lost = "li[data-kind='jvm'][data-name='" + jvmName(killed) + "'][data-state='lost']";
                browser.await(
                        SHOWN,
                        "JVM " + jvmName(killed) + " lost",
                        b -> !browser.all(lost).isEmpty());
                final String reason = browser.text(lost + " > .detail");
                assertFalse(reason.isBlank(), "the loss says why");
                browser.screenshot("deployment");

                final String noToken = monitor.url().substring(0, monitor.url().indexOf('?'));
                assertEquals(403, get(noToken).statusCode());
                assertEquals(
                        403,
                        get(monitor.metricsUrl().replaceAll("token=.*", "token=0123"))
                                .statusCode());
                assertEquals(403, get(noToken + "api/state").statusCode());
            } finally {
                calling.set(false);
                caller.join(10_000);
            }
        }
    }

    /** The meters of the README's table that every run has, in the Prometheus text, labelled with their JVM. */
    private void prometheusHasTheReadmesMetersLabelled(final Monitor monitor, final Node node) throws Exception {
        final List<String> meters = readmeMeters().stream()
                .filter(m -> m.startsWith("troupe.") && !m.startsWith("troupe.mpi.") && !m.startsWith("troupe.deploy."))
                .toList();
        assertTrue(meters.size() >= 10, "the README lists the core's meters: " + meters);
        final String[] text = new String[1];
        final String jvm = "jvm=\"" + jvmName(node) + "\"";
        parentAwait(() -> {
            text[0] = get(monitor.metricsUrl()).body();
            return meters.stream()
                    .allMatch(m -> text[0].lines().anyMatch(l -> l.startsWith(m.replace('.', '_')) && l.contains(jvm)));
        });
        assertTrue(
                text[0].lines()
                        .anyMatch(l -> l.startsWith("troupe_deploy_jvms{")
                                && l.contains("launch=\"workers-1\"")
                                && l.contains("kind=\"local\"")
                                && l.contains("state=\"asked\"")
                                && l.endsWith(" 3.0")),
                "the launcher counts the launch's JVMs");
        for (final String line : text[0].lines().filter(l -> l.contains(jvm)).toList()) {
            for (final String label : List.of("cluster=\"workers-1\"", "host=\"", "node=\"")) {
                assertTrue(line.contains(label), label + " in " + line);
            }
        }
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static void parentAwait(final Check check) throws Exception {
        final long deadline = System.nanoTime() + SHOWN.toNanos();
        while (!check.holds()) {
            assertTrue(System.nanoTime() < deadline, "the meters to be scraped within " + SHOWN);
            Thread.sleep(200);
        }
    }

    /** The meters the README's table names. */
    private static List<String> readmeMeters() throws IOException {
        final List<String> names = new ArrayList<>();
        final Matcher row =
                Pattern.compile("(?m)^\\| (`[^|]+`) \\|").matcher(Files.readString(Path.of("../README.md")));
        while (row.find()) {
            final Matcher name = Pattern.compile("`([a-z0-9.]+)`").matcher(row.group(1));
            while (name.find()) {
                names.add(name.group(1));
            }
        }
        return names;
    }

    /** The console's URL a launcher printed in {@code file}, once it has. */
    private static String consoleUrl(final Path file, final Process p) throws Exception {
        final Pattern url = Pattern.compile("console at (http://\\S+)");
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            final Matcher m = url.matcher(Files.exists(file) ? Files.readString(file) : "");
            if (m.find()) {
                return m.group(1);
            }
            assertTrue(p.isAlive(), "the launcher ended before printing its console's URL: " + Files.readString(file));
            Thread.sleep(100);
        }
        throw new AssertionError("no console URL in " + file + " within " + WAIT);
    }

    @Test
    void aJem3dRunShowsItsSubdomainsStepsAndSpeed() throws Exception {
        try (Browser browser = Browser.open()) {
            final Process p = Jem3dTesting.launcher(
                            dir, "--monitor", "--nodes", "2", "--mesh", "13", "--steps", "1000000")
                    .start();
            try {
                browser.get(consoleUrl(dir.resolve("err.txt"), p));
                final String rows = "#applications [data-app='jem3d'] tbody tr";
                browser.await(SHOWN, "the 2 subdomains", b -> browser.all(rows).size() == 2);
                final String step = rows + "[data-key='0'] td[data-meter='jem3d.subdomain.step']";
                final long first = browser.await(SHOWN, "subdomain 0's step", b -> {
                    final String t = browser.text(step);
                    return t.isBlank() || t.equals("0") ? null : Long.parseLong(t);
                });
                browser.await(SHOWN, "subdomain 0 stepping on", b -> Long.parseLong(browser.text(step)) > first);
                browser.await(
                        SHOWN,
                        "the steps per second",
                        b -> !browser.all(".chart[data-series='steps per second'] canvas")
                                .isEmpty());
                browser.await(
                        SHOWN,
                        "the run's events",
                        b -> browser.all(".panel .events li").size() >= 2);
                browser.screenshot("jem3d");
            } finally {
                // Ctrl-C, as a terminal sends it to the launcher's process group: it stops and reports
                new ProcessBuilder("kill", "-INT", "--", "-" + p.pid()).start().waitFor();
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }

    @Test
    void anMpiJobOfJvmsShowsItsRanksAndTheirTraffic() throws Exception {
        try (Browser browser = Browser.open()) {
            final String nozzle = Path.of(Nozzle.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
            final Path err = dir.resolve("err.txt");
            final Process p = new ProcessBuilder(MpjRunCommand.of(
                            List.of(),
                            List.of(
                                    "-np",
                                    "3",
                                    "-dev",
                                    "jvm",
                                    "-monitor",
                                    "-cp",
                                    nozzle,
                                    Nozzle.class.getName(),
                                    "--model",
                                    "axi",
                                    "--cells",
                                    "240x60",
                                    "--max-iterations",
                                    "2000000")))
                    .redirectOutput(dir.resolve("out.txt").toFile())
                    .redirectError(err.toFile())
                    .start();
            try {
                browser.get(consoleUrl(err, p));
                final String ranks = "[data-table='ranks'] tbody tr";
                browser.await(
                        SHOWN,
                        "3 running ranks",
                        b -> browser.all(ranks).stream()
                                        .filter(r -> r.getText().contains("running"))
                                        .count()
                                == 3);
                browser.await(SHOWN, "bytes sent between ranks 0 and 1", b -> {
                    final List<WebElement> cells = browser.all("[data-matrix='bytes sent'] tbody tr:first-child td");
                    return cells.size() == 3 && !cells.get(1).getText().equals("0");
                });
                browser.await(
                        SHOWN,
                        "Nozzle's residual",
                        b -> !browser.all("[data-app='nozzle'] td[data-meter='nozzle.residual']")
                                .isEmpty());
                browser.screenshot("mpjrun");
            } finally {
                p.destroy(); // mpjrun's hook stops its ranks' JVMs
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }
}
