package org.troupe.monitor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The monitor's HTTP side, one Jetty handler: the console's page and its files, the run's state as JSON and as a
 * stream of server-sent events, the Prometheus endpoint, and the controls. Every request must carry the token
 * (query parameter {@code token} or {@code Authorization: Bearer}); others get 403 and nothing else.
 */
final class Console extends Handler.Abstract {
    private static final Logger LOG = LoggerFactory.getLogger(Console.class);
    /** Event streams served at once: each holds a thread while its page is open. */
    static final int MAX_STREAMS = 16;

    private static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";
    /** Path -> (class path resource, content type). */
    private static final Map<String, String[]> FILES = Map.of(
            "/console.js", new String[] {"org/troupe/monitor/console/console.js", "text/javascript"},
            "/console.css", new String[] {"org/troupe/monitor/console/console.css", "text/css"},
            "/uPlot.iife.min.js", new String[] {UPLOT + "uPlot.iife.min.js", "text/javascript"},
            "/uPlot.min.css", new String[] {UPLOT + "uPlot.min.css", "text/css"});

    private final Monitor monitor;
    private final byte[] token;
    private final String tokenText;
    private final AtomicInteger streams = new AtomicInteger();

    Console(final Monitor monitor, final String token) {
        this.monitor = monitor;
        this.tokenText = token;
        this.token = token.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public boolean handle(final Request request, final Response response, final Callback callback) {
        try {
            return serve(request, response, callback);
        } catch (Exception e) { // said without the request's URL, which carries the token
            LOG.warn("The console could not answer {}: {}", request.getHttpURI().getPath(), e.toString());
            send(response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, "text/plain", "500: " + e + "\n");
            return true;
        }
    }

    private boolean serve(final Request request, final Response response, final Callback callback) throws Exception {
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Referrer-Policy", "no-referrer");
        if (!authorized(request)) {
            send(
                    response,
                    callback,
                    HttpStatus.FORBIDDEN_403,
                    "text/plain",
                    "403: this monitor needs the token of the URL its launcher printed\n");
            return true;
        }
        final String path = request.getHttpURI().getPath();
        final String method = request.getMethod();
        if (path.equals("/api/control") && method.equals("POST")) {
            final Fields query = Request.extractQueryParameters(request);
            final String name = query.getValue("name");
            final boolean done = name != null && monitor.runControl(name, query.getValue("jvm"));
            send(
                    response,
                    callback,
                    done ? 200 : HttpStatus.FORBIDDEN_403,
                    "text/plain",
                    done ? "done\n" : "403: no such control, or controls are off (troupe.monitor.control)\n");
            return true;
        }
        if (!method.equals("GET")) {
            send(response, callback, HttpStatus.METHOD_NOT_ALLOWED_405, "text/plain", "405: GET only\n");
            return true;
        }
        switch (path) {
            case "/", "/index.html" -> {
                response.getHeaders()
                        .put(
                                "Content-Security-Policy",
                                "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:");
                send(
                        response,
                        callback,
                        200,
                        "text/html",
                        resource("org/troupe/monitor/console/index.html").replace("{{token}}", tokenText));
            }
            case "/metrics" -> send(response, callback, 200, "text/plain; version=0.0.4", monitor.scrape());
            case "/api/state" -> send(response, callback, 200, "application/json", monitor.state());
            case "/api/events" -> stream(response, callback);
            default -> {
                final String[] file = FILES.get(path);
                if (file == null) {
                    send(response, callback, HttpStatus.NOT_FOUND_404, "text/plain", "404: no such page\n");
                } else {
                    send(response, callback, 200, file[1], resource(file[0]));
                }
            }
        }
        return true;
    }

    private boolean authorized(final Request request) {
        String given = null;
        final String auth = request.getHeaders().get(HttpHeader.AUTHORIZATION);
        if (auth != null && auth.startsWith("Bearer ")) {
            given = auth.substring("Bearer ".length()).strip();
        } else {
            final Fields query = Request.extractQueryParameters(request);
            given = query.getValue("token");
        }
        return given != null && MessageDigest.isEqual(token, given.getBytes(StandardCharsets.US_ASCII));
    }

    /** The run's state every update, as server-sent events, until the page goes or the monitor stops. */
    private void stream(final Response response, final Callback callback) {
        if (streams.incrementAndGet() > MAX_STREAMS) {
            streams.decrementAndGet();
            send(
                    response,
                    callback,
                    HttpStatus.SERVICE_UNAVAILABLE_503,
                    "text/plain",
                    "503: " + MAX_STREAMS + " consoles are open already\n");
            return;
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        try {
            while (isStarted()) {
                final byte[] event = ("data: " + monitor.state() + "\n\n").getBytes(StandardCharsets.UTF_8);
                try (Blocker.Callback written = Blocker.callback()) {
                    response.write(false, ByteBuffer.wrap(event), written);
                    written.block();
                }
                Thread.sleep(monitor.settings().update().toMillis());
            }
            callback.succeeded();
        } catch (IOException e) { // the page went away
            callback.succeeded();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            callback.succeeded();
        } catch (RuntimeException e) {
            callback.failed(e);
        } finally {
            streams.decrementAndGet();
        }
    }

    private static void send(
            final Response response, final Callback callback, final int status, final String type, final String body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type + "; charset=utf-8");
        Content.Sink.write(response, true, body, callback);
    }

    private static String resource(final String name) throws IOException {
        try (InputStream in = Console.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException(name + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
