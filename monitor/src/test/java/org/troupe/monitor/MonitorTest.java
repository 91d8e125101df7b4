package org.troupe.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.CoreConfig;
import org.troupe.core.TroupeRuntime;

/** The monitor's HTTP side in one JVM: the token, the Prometheus text, the state, the controls. */
class MonitorTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private TroupeRuntime runtime;
    private Monitor monitor;

    @BeforeEach
    void start() {
        runtime = TroupeRuntime.start(CoreConfig.builder().build());
        monitor = Monitor.start(runtime, new MonitorSettings("127.0.0.1", 0, Duration.ofMillis(200), false));
    }

    @AfterEach
    void stop() {
        if (monitor != null) {
            monitor.close();
        }
        runtime.shutdown();
    }

    private HttpResponse<String> get(final String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String base() {
        return monitor.url().substring(0, monitor.url().indexOf("/?token="));
    }

    private String token() {
        return monitor.url().substring(monitor.url().indexOf("=") + 1);
    }

    @Test
    void everyRequestWithoutTheTokenIsForbidden() throws Exception {
        for (final String path : List.of("/", "/metrics", "/api/state", "/api/events", "/console.js", "/nothing")) {
            assertEquals(403, get(base() + path).statusCode(), path);
            assertEquals(403, get(base() + path + "?token=" + "0".repeat(32)).statusCode(), path);
        }
        final HttpResponse<String> bearer = http.send(
                HttpRequest.newBuilder(URI.create(base() + "/metrics"))
                        .header("Authorization", "Bearer " + token())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, bearer.statusCode());
    }

    @Test
    void prometheusTextCarriesTheLaunchersMetersLabelled() throws Exception {
        final HttpResponse<String> r = get(monitor.metricsUrl());
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        assertTrue(
                r.body()
                        .lines()
                        .anyMatch(l -> l.startsWith("jvm_memory_used_bytes{")
                                && l.contains("jvm=\"launcher\"")
                                && l.contains("cluster=\"launcher\"")),
                r.body());
    }

    @Test
    void aMeterThatFailsToReadSpoilsNothingElse() throws Exception {
        FunctionCounter.builder("app.broken", this, t -> {
                    throw new IllegalStateException("a bug in an application's meter");
                })
                .register(runtime.metrics().registry());
        Gauge.builder("app.nan", () -> Double.NaN)
                .strongReference(true)
                .register(runtime.metrics().registry());
        final HttpResponse<String> metrics = get(monitor.metricsUrl());
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.body().contains("jvm_memory_used_bytes{"), "the other meters are there");
        assertEquals(200, get(base() + "/api/state?token=" + token()).statusCode());
    }

    @Test
    void thePageAndItsFilesComeFromTheJar() throws Exception {
        final HttpResponse<String> page = get(monitor.url());
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("console.js?token=" + token()), "the page's files carry the token");
        for (final String file : List.of("/console.js", "/console.css", "/uPlot.iife.min.js", "/uPlot.min.css")) {
            final HttpResponse<String> r = get(base() + file + "?token=" + token());
            assertEquals(200, r.statusCode(), file);
            assertFalse(r.body().isEmpty(), file);
        }
    }

    @Test
    void theStateHasTheTreeThePanelsAndTheLauncher() throws Exception {
        monitor.title("a test run");
        monitor.tree(() -> List.of(new Entity(
                "launch", "workers", "running", "", "", List.of(Entity.of("jvm", "workers-1", "lost", "killed")))));
        final Panel p = monitor.panel("Jem3D");
        p.point("steps/s", "step", "steps/s", 1, 250);
        p.row("subdomains", List.of("subdomain", "step"), "0", List.of(40));
        p.event("node <lost>");
        final String state = get(base() + "/api/state?token=" + token()).body();
        for (final String part : List.of(
                "\"title\":\"a test run\"",
                "\"name\":\"workers-1\",\"state\":\"lost\",\"detail\":\"killed\"",
                "\"name\":\"launcher\"",
                "\"points\":[[1,250]]",
                "node \\u003clost\\u003e")) {
            assertTrue(state.contains(part), part + " in " + state);
        }
    }

    @Test
    void controlsRunOnlyWhenTheSettingAllowsThem() throws Exception {
        final boolean[] ran = new boolean[1];
        monitor.control("stop", () -> ran[0] = true);
        final HttpRequest post = HttpRequest.newBuilder(URI.create(base() + "/api/control?name=stop&token=" + token()))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        assertEquals(403, http.send(post, HttpResponse.BodyHandlers.ofString()).statusCode());
        assertFalse(ran[0]);
        monitor.close();
        monitor = Monitor.start(runtime, new MonitorSettings("127.0.0.1", 0, Duration.ofMillis(200), true));
        monitor.control("stop", () -> ran[0] = true);
        final HttpRequest allowed = HttpRequest.newBuilder(
                        URI.create(base() + "/api/control?name=stop&token=" + token()))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        assertEquals(
                200, http.send(allowed, HttpResponse.BodyHandlers.ofString()).statusCode());
        assertTrue(ran[0]);
    }

    @Test
    void aJvmsControlIsGivenTheJvmItWasPressedFor() throws Exception {
        monitor.close();
        monitor = Monitor.start(runtime, new MonitorSettings("127.0.0.1", 0, Duration.ofMillis(200), true));
        final List<String> killed = new CopyOnWriteArrayList<>();
        monitor.jvmControl("kill", killed::add);
        final HttpRequest kill = HttpRequest.newBuilder(
                        URI.create(base() + "/api/control?name=kill&jvm=rt-42-abc&token=" + token()))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        assertEquals(200, http.send(kill, HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(List.of("rt-42-abc"), killed);
        assertTrue(get(base() + "/api/state?token=" + token()).body().contains("\"jvmControls\":[\"kill\"]"));
    }

    @Test
    void aTakenPortIsRefusedSayingWhichOptionToChange() {
        final int port = Integer.parseInt(base().replaceAll(".*:", ""));
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Monitor.start(runtime, new MonitorSettings("127.0.0.1", port, Duration.ofSeconds(1), false)));
        assertTrue(e.getMessage().contains("--monitor=PORT"), e.getMessage());
    }

    @Test
    void badMonitorOptionsAreRefusedClearly() {
        assertEquals(0, MonitorSettings.portOf("--monitor"));
        assertEquals(8080, MonitorSettings.portOf("--monitor=8080"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MonitorSettings.portOf("--monitor=http"))
                .getMessage()
                .contains("--monitor=8080"));
        assertThrows(IllegalArgumentException.class, () -> MonitorSettings.portOf("--monitor=70000"));
    }
}
