package org.troupe.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.spi.Progress;
import org.troupe.serialization.SerializationConfig;

class IdleSpinnersTest {
    /** An active object that only answers. */
    public static class Echo {
        public int ping() {
            return 1;
        }
    }

    private static final Duration SPIN = Duration.ofMillis(50);
    /** Spinning is counted only while some transport polls (here none has a link yet): this one stands for it. */
    private final Progress.Poller poller = new Progress.Poller() {
        @Override
        public void poll() {}

        @Override
        public void watchAgain() {}
    };

    private TroupeRuntime runtime;

    @BeforeEach
    void start() {
        Progress.register(poller);
        runtime = TroupeRuntime.start(CoreConfig.builder()
                .spin(SPIN)
                .waitBackoff(false) // spins even when the machine running the tests is crowded
                .serialization(SerializationConfig.builder()
                        .allowPackage("org.troupe.core")
                        .build())
                .build());
    }

    @AfterEach
    void stop() {
        runtime.shutdown();
        Progress.unregister(poller);
    }

    /**
     * Only so many idle active objects spin at once (half the cores); one that has spun its time and parked gives
     * its place up. Held while parked, the places would keep every other idle object from spinning for good, and
     * each request to one would wait for its thread to be woken.
     */
    @Test
    void aBodyThatParkedLeavesItsPlaceAmongIdleSpinnersToTheNext() throws Exception {
        final int places = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        final List<Echo> parked = new ArrayList<>();
        for (int i = 0; i < places; i++) {
            final Echo e = ActiveObjects.newActive(Echo.class, null, runtime.defaultNode());
            assertEquals(1, e.ping()); // served, then idle: spins its time and parks
            parked.add(e);
        }
        Thread.sleep(6 * SPIN.toMillis());
        assertTrue(!Progress.someoneSpins(), "the idle objects have parked");
        final Echo next = ActiveObjects.newActive(Echo.class, null, runtime.defaultNode());
        assertEquals(1, next.ping());
        boolean spins = false;
        final long until = System.nanoTime() + SPIN.toNanos() * 3 / 4;
        while (!spins && System.nanoTime() < until) {
            spins = Progress.someoneSpins();
        }
        assertTrue(spins, "the next object to go idle spins while the " + parked.size() + " before it are parked");
    }
}
