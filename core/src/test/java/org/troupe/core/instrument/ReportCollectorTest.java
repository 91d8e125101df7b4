package org.troupe.core.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Statistic;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.troupe.core.metrics.MetricsReport;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;
import org.troupe.core.spi.Endpoints;

/** The launcher's side of metrics reports: the latest of each runtime, none of a lost one, none that is broken. */
class ReportCollectorTest {
    private static final ByteBuffer NO_HEADER = ByteBuffer.allocate(0);

    /** Endpoints that hand the collector's handler to the test. */
    private static final class Opened implements Endpoints {
        EndpointHandler handler;

        @Override
        public Endpoint open(final String name, final EndpointHandler h) {
            assertEquals(ReportCollector.ENDPOINT, name);
            handler = h;
            return new Endpoint() {
                @Override
                public EndpointAddress address() {
                    return new EndpointAddress("rt-launcher", "127.0.0.1:1", 1);
                }

                @Override
                public void send(final EndpointAddress to, final ByteBuffer h, final ByteBuffer p, final boolean b) {}

                @Override
                public void close() {}
            };
        }

        @Override
        public EndpointAddress lookup(final String name) {
            throw new UnsupportedOperationException();
        }
    }

    private final RuntimeMeters meters = new RuntimeMeters(true, () -> 0, "rt-test", List::of);
    private final Opened endpoints = new Opened();

    private static EndpointAddress from(final String runtimeId) {
        return new EndpointAddress(runtimeId, "127.0.0.1:2", 7);
    }

    private static ByteBuffer report(final String node, final double served, final int size) {
        final ByteBuffer b = ByteBuffer.allocate(size);
        MetricsReport.encode(
                "host",
                List.of(node),
                List.of(new MetricsReport.Sample(
                        "troupe.calls.served", Meter.Type.COUNTER, "", "", Map.of(), Map.of(Statistic.COUNT, served))),
                b);
        return b.flip();
    }

    @Test
    void keepsTheLatestReportOfEachRuntimeUntilItIsLost() {
        ReportCollector.open(meters, endpoints, 4096);
        for (int i = 1; i <= 100; i++) { // a burst: only the last counts
            endpoints.handler.received(from("rt-a"), NO_HEADER, report("a", i, 256));
        }
        endpoints.handler.received(from("rt-b"), NO_HEADER, report("b", 5, 256));
        assertEquals(List.of("rt-a", "rt-b"), ids());
        assertEquals(
                100,
                meters.reports().get(0).find("troupe.calls.served", Map.of()).value(Statistic.COUNT));
        endpoints.handler.runtimeLost("rt-a", "killed");
        assertEquals(List.of("rt-b"), ids());
    }

    @Test
    void dropsReportsAboveTheLimitOrMalformedAndKeepsThePreviousOne() {
        ReportCollector.open(meters, endpoints, 4096);
        endpoints.handler.received(from("rt-a"), NO_HEADER, report("a", 1, 256));
        endpoints.handler.received(from("rt-a"), NO_HEADER, ByteBuffer.allocate(4097));
        endpoints.handler.received(from("rt-a"), NO_HEADER, ByteBuffer.wrap(new byte[] {1, 2, 3}));
        assertEquals(
                1, meters.reports().get(0).find("troupe.calls.served", Map.of()).value(Statistic.COUNT));
    }

    @Test
    void aRuntimeWithMetricsOffOpensNoEndpoint() {
        final RuntimeMeters off = new RuntimeMeters(false, () -> 0, "rt-test", List::of);
        ReportCollector.open(off, endpoints, 4096);
        assertEquals(null, endpoints.handler);
        assertTrue(off.reports().isEmpty());
    }

    private List<String> ids() {
        return meters.reports().stream().map(MetricsReport::runtimeId).toList();
    }
}
