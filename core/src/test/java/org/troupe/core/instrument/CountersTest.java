package org.troupe.core.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The hot paths' counters, as the meters read them. */
class CountersTest {
    private final RuntimeMeters meters = new RuntimeMeters(true, () -> 0, "rt-test", List::of);

    private double counter(final String name, final String tag, final String value) {
        final FunctionCounter c = meters.registry().find(name).tag(tag, value).functionCounter();
        return c.count();
    }

    @Test
    void anObjectsCountsOutliveItAndImmediateServicesCountToo() throws Exception {
        final ObjectMeters m = meters.object("n1", String.class);
        final AtomicInteger queue = new AtomicInteger(3);
        final ObjectMeters.Counts a = m.live(queue::get);
        final ObjectMeters.Counts b = m.live(() -> 2);
        // each object's thread counts its own; many objects of the class at once
        final List<Thread> threads = new ArrayList<>();
        for (final ObjectMeters.Counts c : List.of(a, b)) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 100_000; i++) {
                    c.served(i % 10 == 0 ? System.nanoTime() - 1_000 : 0);
                }
            }));
        }
        for (final Thread t : threads) {
            t.join();
        }
        m.servedAtOnce();
        m.oneWayFailed();
        assertEquals(200_001, counter("troupe.calls.served", "node", "n1"));
        assertEquals(1, counter("troupe.oneway.failures", "node", "n1"));
        final Gauge queued = meters.registry().find("troupe.requests.queued").gauge();
        assertEquals(5, queued.value());
        final FunctionTimer wait =
                meters.registry().find("troupe.requests.wait").functionTimer();
        assertEquals(20_000, wait.count());
        assertEquals(true, wait.totalTime(TimeUnit.NANOSECONDS) >= 20_000 * 1_000.0);
        a.ended();
        a.ended(); // twice: counted once
        assertEquals(200_001, counter("troupe.calls.served", "node", "n1"), "an ended object's counts stay");
        assertEquals(2, queued.value(), "its queue does not");
    }

    @Test
    void aLinkCountsBothWaysAndItsMetersGoWithIt() {
        final LinkMeters link = meters.link("rt-9");
        link.sentLocked(100, 1);
        link.sentLocked(50, 0);
        link.sent(30); // an endpoint frame
        link.pushedLocked();
        link.received(70);
        link.callsReceived(4);
        assertEquals(3, counter("troupe.link.frames.sent", "peer", "rt-9"));
        assertEquals(180, counter("troupe.link.bytes.sent", "peer", "rt-9"));
        assertEquals(1, counter("troupe.calls.sent", "peer", "rt-9"));
        assertEquals(1, counter("troupe.futures.pushed", "peer", "rt-9"));
        assertEquals(70, counter("troupe.link.bytes.received", "peer", "rt-9"));
        assertEquals(4, counter("troupe.calls.received", "peer", "rt-9"));
        meters.forgetLink("rt-9");
        assertEquals(
                null,
                meters.registry()
                        .find("troupe.link.bytes.sent")
                        .tag("peer", "rt-9")
                        .functionCounter());
    }

    @Test
    void offCountsNothingAndRegistersNothing() {
        final RuntimeMeters off = new RuntimeMeters(false, () -> 0, "rt-test", List::of);
        off.link("rt-1").sentLocked(10, 1);
        off.object("n", String.class).live(() -> 1).served(1);
        assertEquals(0, off.object("n", String.class).queued(), "no clock read when off");
        assertEquals(List.of(), off.registry().getMeters());
    }
}
