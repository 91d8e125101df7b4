package org.troupe.core.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The bounds one peer is held to, with small limits; {@code overloads} records why its link would close. */
class ServingLimitsTest {
    private final List<String> overloads = new ArrayList<>();

    @Test
    void shouldRefuseTheRequestPastTheMostWaitingAndCountNothingForIt() {
        final ServingLimits limits = new ServingLimits(1, 2, 1_000, overloads::add);
        assertTrue(limits.queuing(10));
        assertTrue(limits.queuing(10));
        assertEquals(List.of(), overloads, "as many as the bound may wait");
        assertFalse(limits.queuing(10));
        assertEquals(List.of("it had more than 2 requests waiting to be served here"), overloads);
        limits.unqueued(10);
        assertTrue(limits.queuing(10), "the refused request was not counted, and one left: room for one more");
    }

    @Test
    void shouldRefuseTheRequestPastTheMostBytesWaitingInMebibytes() {
        final ServingLimits limits = new ServingLimits(1, 100, 3L << 20, overloads::add);
        assertTrue(limits.queuing(2L << 20));
        assertFalse(limits.queuing(2L << 20));
        assertEquals(List.of("it had more than 3 MiB of requests waiting to be served here"), overloads);
        assertTrue(limits.queuing(1L << 20), "exactly the bound fits: the refused bytes were not kept");
    }

    @Test
    void shouldRunATaskOnAThreadOfItsOwnAndRefuseOnePastTheMostRunning() throws InterruptedException {
        final ServingLimits limits = new ServingLimits(1, 1, 1, overloads::add);
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final Thread caller = Thread.currentThread();
        final AtomicBoolean onOwnThread = new AtomicBoolean();
        final AtomicBoolean refusedRan = new AtomicBoolean();
        try {
            limits.runOnItsOwnThread(() -> {
                onOwnThread.set(Thread.currentThread() != caller);
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            started.await();
            assertTrue(onOwnThread.get(), "the task does not hold the thread that reads the link");
            limits.runOnItsOwnThread(() -> refusedRan.set(true));
            assertEquals(List.of("it had more than 1 immediate calls and creations running here at once"), overloads);
        } finally {
            release.countDown();
        }
        assertFalse(refusedRan.get(), "a task past the bound is not run");
    }
}
