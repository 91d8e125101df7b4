package org.troupe.core.instrument;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.metrics.MetricsReport;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;
import org.troupe.core.spi.Endpoints;

/**
 * Keeps the latest metrics report of each runtime that sends one to this runtime's endpoint
 * {@value #ENDPOINT}, until its link ends. A report larger than the limit, or one that does not decode, is dropped
 * with a warning (once per runtime): a peer that proved the secret may still be a broken one.
 */
public final class ReportCollector implements EndpointHandler, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReportCollector.class);

    /** The endpoint a runtime's reports go to. */
    public static final String ENDPOINT = "troupe-metrics";

    private final int maxBytes;
    /** By runtime id, in the order the runtimes first reported. */
    private final Map<String, MetricsReport> latest = new LinkedHashMap<>();

    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private final Endpoint endpoint;

    private ReportCollector(final Endpoints endpoints, final int maxBytes) {
        this.maxBytes = maxBytes;
        this.endpoint = endpoints.open(ENDPOINT, this);
    }

    /** Opens the endpoint of {@code meters}' runtime where reports come, and keeps them in {@code meters}. */
    public static void open(final RuntimeMeters meters, final Endpoints endpoints, final int maxBytes) {
        if (meters.enabled()) {
            meters.collectWith(new ReportCollector(endpoints, maxBytes));
        }
    }

    @Override
    public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
        if (payload.remaining() > maxBytes) {
            warnOnce(from, "a report of " + payload.remaining() + " bytes, above the limit of " + maxBytes);
            return;
        }
        final MetricsReport report;
        try {
            report = MetricsReport.decode(from.runtimeId(), System.currentTimeMillis(), payload);
        } catch (IllegalArgumentException e) {
            warnOnce(from, "a malformed report (" + e.getMessage() + ")");
            return;
        }
        synchronized (latest) {
            latest.put(from.runtimeId(), report);
        }
    }

    private void warnOnce(final EndpointAddress from, final String what) {
        if (warned.add(from.runtimeId())) {
            LOG.warn(
                    "Dropping metrics from runtime {}: {}; later ones like it are dropped silently",
                    from.runtimeId(),
                    what);
        }
    }

    @Override
    public void runtimeLost(final String runtimeId, final String reason) {
        synchronized (latest) {
            latest.remove(runtimeId);
        }
        warned.remove(runtimeId);
    }

    List<MetricsReport> reports() {
        synchronized (latest) {
            return new ArrayList<>(latest.values());
        }
    }

    @Override
    public void close() {
        endpoint.close();
    }
}
