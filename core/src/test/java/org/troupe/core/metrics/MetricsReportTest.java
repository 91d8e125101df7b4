package org.troupe.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Statistic;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricsReportTest {
    private static final MetricsReport.Sample SERVED = new MetricsReport.Sample(
            "troupe.calls.served",
            Meter.Type.COUNTER,
            "",
            "Requests served",
            Map.of("node", "workers-1", "class", "org.acme.Solver"),
            Map.of(Statistic.COUNT, 42.0));
    private static final MetricsReport.Sample WAIT = new MetricsReport.Sample(
            "troupe.requests.wait",
            Meter.Type.TIMER,
            "seconds",
            "",
            Map.of("class", "org.acme.Solver"),
            Map.of(Statistic.COUNT, 3.0, Statistic.TOTAL_TIME, 0.25));

    @Test
    void aReportReadsBackAsItWasWritten() {
        final ByteBuffer b = ByteBuffer.allocate(4096);
        assertEquals(2, MetricsReport.encode("host-a", List.of("workers-1", "ünïcode"), List.of(SERVED, WAIT), b));
        b.flip();
        final MetricsReport r = MetricsReport.decode("rt-1-ab", 7, b);
        assertEquals("rt-1-ab", r.runtimeId());
        assertEquals("host-a", r.host());
        assertEquals(List.of("workers-1", "ünïcode"), r.nodes());
        assertEquals(7, r.receivedAtMillis());
        assertEquals(List.of(SERVED, WAIT), r.samples());
        assertEquals(0.25, r.find("troupe.requests.wait", Map.of()).value(Statistic.TOTAL_TIME));
        assertTrue(Double.isNaN(SERVED.value(Statistic.MAX)));
    }

    @Test
    void samplesThatDoNotFitAreLeftOutWhole() {
        final List<MetricsReport.Sample> many = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            many.add(new MetricsReport.Sample(
                    "m" + i, Meter.Type.GAUGE, "", "", Map.of("peer", "rt-" + i), Map.of(Statistic.VALUE, (double) i)));
        }
        final ByteBuffer b = ByteBuffer.allocate(4096);
        final int written = MetricsReport.encode("h", List.of("n"), many, b);
        assertTrue(written > 10 && written < 1000, "written " + written);
        b.flip();
        final MetricsReport r = MetricsReport.decode("rt", 0, b);
        assertEquals(many.subList(0, written), r.samples());
    }

    @Test
    void aMalformedReportIsRefusedSayingWhere() {
        final ByteBuffer b = ByteBuffer.allocate(4096);
        MetricsReport.encode("h", List.of("n"), List.of(SERVED), b);
        b.flip();
        final ByteBuffer cut = b.duplicate().limit(b.limit() - 3);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MetricsReport.decode("rt", 0, cut))
                .getMessage()
                .contains("ends inside a field"));
        final ByteBuffer longer = ByteBuffer.allocate(b.limit() + 1)
                .put(b.duplicate())
                .put((byte) 1)
                .flip();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MetricsReport.decode("rt", 0, longer))
                .getMessage()
                .contains("1 bytes follow"));
        final ByteBuffer huge =
                ByteBuffer.allocate(16).putShort((short) 0).putShort((short) 0).putInt(1 << 30);
        huge.flip();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MetricsReport.decode("rt", 0, huge))
                .getMessage()
                .contains("cannot fit"));
    }
}
