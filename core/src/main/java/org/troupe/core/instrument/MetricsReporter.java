package org.troupe.core.instrument;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.metrics.MetricsReport;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.Endpoints;

/**
 * Sends this runtime's meters to the runtime that started it (a node JVM's launcher), every period, as one
 * endpoint frame of at most the report limit: the samples that do not fit are left out, with a warning once. It
 * stops when that runtime is lost or keeps no metrics.
 */
public final class MetricsReporter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsReporter.class);
    private static final ByteBuffer NO_HEADER = ByteBuffer.allocate(0);

    private final RuntimeMeters meters;
    private final Endpoints endpoints;
    private final String collectorUrl;
    private final ByteBuffer buffer;
    private final ScheduledExecutorService timer;
    private volatile Endpoint out;
    private EndpointAddress to;
    private boolean warnedFull;
    private boolean warnedFailure;

    private MetricsReporter(
            final RuntimeMeters meters, final Endpoints endpoints, final String parentAddress, final int maxBytes) {
        this.meters = meters;
        this.endpoints = endpoints;
        this.collectorUrl = "troupe://" + parentAddress + "/" + ReportCollector.ENDPOINT;
        this.buffer = ByteBuffer.allocate(maxBytes);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, "troupe-metrics-report");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Reports {@code meters} every {@code period} to the runtime listening at {@code parentAddress}; null when
     * metrics are off.
     */
    public static MetricsReporter start(
            final RuntimeMeters meters,
            final Endpoints endpoints,
            final String parentAddress,
            final Duration period,
            final int maxBytes) {
        if (!meters.enabled()) {
            return null;
        }
        final MetricsReporter r = new MetricsReporter(meters, endpoints, parentAddress, maxBytes);
        final long millis = period.toMillis();
        r.timer.scheduleWithFixedDelay(r::report, 0, millis, TimeUnit.MILLISECONDS);
        return r;
    }

    /** Sends one report now (on the timer's thread). */
    void report() {
        try {
            if (to == null) {
                to = endpoints.lookup(collectorUrl);
                out = endpoints.open("troupe-metrics-out-" + Long.toHexString(System.nanoTime()), (f, h, p) -> {});
            }
            final MetricsReport now = meters.snapshot();
            final List<MetricsReport.Sample> samples = now.samples();
            buffer.clear();
            final int written = MetricsReport.encode(now.host(), now.nodes(), samples, buffer);
            if (written < samples.size() && !warnedFull) {
                warnedFull = true;
                LOG.warn(
                        "Only {} of this runtime's {} meters fit in a metrics report of {} bytes; raise"
                                + " troupe.metrics.maxReportBytes to send them all",
                        written,
                        samples.size(),
                        buffer.capacity());
            }
            buffer.flip();
            out.send(to, NO_HEADER, buffer, false);
        } catch (PeerFailedException e) {
            LOG.debug("The runtime at {} is gone: no more metrics reports ({})", collectorUrl, e.getMessage());
            close();
        } catch (TroupeException e) {
            LOG.debug("The runtime at {} keeps no metrics: none are sent ({})", collectorUrl, e.getMessage());
            close();
        } catch (RuntimeException | Error e) { // reported next time: the task must not end here
            if (!warnedFailure) {
                warnedFailure = true;
                LOG.warn("A metrics report could not be sent to {} (said once): {}", collectorUrl, e.toString());
            }
        }
    }

    @Override
    public void close() {
        timer.shutdown();
        final Endpoint o = out;
        if (o != null) {
            o.close();
        }
    }
}
