package org.troupe.groups.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A wait for a group's members: done when they are there, bounded by its timeout, woken by a signal. */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ArrivalsTest {
    private final Arrivals arrivals = new Arrivals();

    @Test
    void membersThereAlreadyEndTheWaitWhateverItsTimeout() {
        assertTrue(arrivals.await(() -> true, Duration.ZERO));
        assertTrue(arrivals.await(() -> true, Duration.ofSeconds(Long.MAX_VALUE)), "centuries: no overflow");
        assertTrue(arrivals.await(() -> true, null));
    }

    @Test
    void aWaitWhoseTimeoutIsOverSaysTheMembersAreNotThere() {
        assertFalse(arrivals.await(() -> false, Duration.ZERO));
        assertFalse(arrivals.await(() -> false, Duration.ofMillis(-1)));
    }

    @Test
    void aWaitWithoutTimeoutEndsOnceASignalledArrivalCompletesTheMembers() throws Exception {
        final AtomicBoolean arrived = new AtomicBoolean();
        final Thread member = Thread.ofPlatform().start(() -> {
            arrived.set(true);
            arrivals.signal();
        });
        assertTrue(arrivals.await(arrived::get, null));
        member.join();
    }

    @Test
    void anInterruptDoesNotEndTheWaitAndIsKept() {
        final AtomicInteger looks = new AtomicInteger();
        Thread.currentThread().interrupt();
        try {
            assertTrue(arrivals.await(() -> looks.incrementAndGet() > 3, null));
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt is kept");
        }
    }
}
