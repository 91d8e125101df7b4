package org.troupe.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.instrument.ObjectMeters;
import org.troupe.serialization.SerializationConfig;

class IdleWaitTest {
    private static final long SPIN_FOR_EVER = TimeUnit.HOURS.toNanos(1);

    private final Copier copier = new Copier(SerializationConfig.defaults());
    private final Body body = new Body(1, new BodyTest.Echo(), 0, copier, ObjectMeters.OFF, () -> {});
    private final ConcurrentLinkedQueue<Request> inbox = new ConcurrentLinkedQueue<>();

    @AfterEach
    void endBody() {
        body.terminate();
    }

    private static Request request() {
        return new Request(0, null, new Object[0], null);
    }

    /** Runs await() in a thread of its own; completes with what it returned. */
    private static CompletableFuture<Boolean> awaitIn(final IdleWait wait, final CompletableFuture<Thread> waiter) {
        final CompletableFuture<Boolean> returned = new CompletableFuture<>();
        final Thread t = Thread.ofPlatform().start(() -> returned.complete(wait.await()));
        waiter.complete(t);
        return returned;
    }

    @Test
    void aRequestAlreadyWaitingEndsTheWaitAtOnceEvenWhileSpinning() {
        final IdleWait wait = new IdleWait(body, inbox, SPIN_FOR_EVER, copier);
        inbox.offer(request());
        assertFalse(wait.await(), "not interrupted");
        assertFalse(wait.parked());
    }

    @Test
    void aParkedBodyWakesForARequestItsSenderUnparksItFor() throws Exception {
        final IdleWait wait = new IdleWait(body, inbox, 0, copier);
        final CompletableFuture<Thread> waiter = new CompletableFuture<>();
        final CompletableFuture<Boolean> returned = awaitIn(wait, waiter);
        final Thread t = waiter.get();
        while (!wait.parked() && !returned.isDone()) {
            Thread.onSpinWait(); // no spin: it parks at once
        }
        inbox.offer(request());
        if (wait.parked()) { // as Body.enqueue does
            LockSupport.unpark(t);
        }
        assertEquals(false, returned.get(10, TimeUnit.SECONDS));
        assertFalse(wait.parked(), "no longer parked once it returned");
    }

    @Test
    void aTerminatedBodyStopsWaitingThoughNoRequestCame() throws Exception {
        final IdleWait wait = new IdleWait(body, inbox, SPIN_FOR_EVER, copier);
        final CompletableFuture<Thread> waiter = new CompletableFuture<>();
        final CompletableFuture<Boolean> returned = awaitIn(wait, waiter);
        body.terminate();
        LockSupport.unpark(waiter.get()); // as Body.terminate does its thread: it parks if no place to spin was free
        assertEquals(false, returned.get(10, TimeUnit.SECONDS));
        assertTrue(inbox.isEmpty());
    }

    @Test
    void anInterruptEndsTheWaitAndIsReportedThenCleared() throws Exception {
        final IdleWait wait = new IdleWait(body, inbox, 0, copier);
        final CompletableFuture<Boolean> cleared = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> {
            Thread.currentThread().interrupt(); // park returns at once while the thread is interrupted
            final boolean interrupted = wait.await();
            cleared.complete(interrupted && !Thread.currentThread().isInterrupted());
        });
        assertTrue(cleared.get(10, TimeUnit.SECONDS), "await said so and cleared the interrupt");
    }
}
