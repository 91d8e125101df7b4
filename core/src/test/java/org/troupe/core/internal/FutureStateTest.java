package org.troupe.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.troupe.core.exceptions.CallFailedException;
import org.troupe.core.exceptions.WaitInterruptedException;
import org.troupe.core.spi.Spin;

class FutureStateTest {
    @Test
    void shouldRunCallbacksOnceWithTheFirstOutcome() {
        final FutureState f = new FutureState(() -> "Worker.compute(int)");
        final List<Object> seen = new ArrayList<>();
        f.whenDone((v, t) -> seen.add(v));
        f.complete(7);
        f.fail(new IllegalStateException("late")); // a failure racing the reply loses
        f.whenDone((v, t) -> seen.add(v));
        assertEquals(List.of(7, 7), seen);
        assertEquals(7, f.await(Spin.NONE));
    }

    @Test
    void shouldNotRunTheCallbackOnTheCallingThreadWhenAlreadyDone() {
        final FutureState f = new FutureState(() -> "call");
        final List<Object> seen = new ArrayList<>();
        assertTrue(f.whenPending((v, t) -> seen.add(v)));
        f.complete("x");
        assertEquals(List.of("x"), seen);
        assertFalse(f.whenPending((v, t) -> seen.add(v)), "already done: the caller handles the value itself");
        assertEquals(List.of("x"), seen);
    }

    @Test
    void shouldThrowACheckedFailureWrappedWithTheCallNamed() {
        final FutureState f = new FutureState(() -> "Solver.step(int)");
        final Exception cause = new IOException("disk");
        f.fail(cause);
        final CallFailedException e = assertThrows(CallFailedException.class, () -> f.await(new Spin(1_000)));
        assertSame(cause, e.getCause());
        assertTrue(e.getMessage().contains("Solver.step(int)"), e.getMessage());
    }

    /** An interrupt ends the wait, keeps the flag, and leaves the future to its outcome. */
    @Test
    void shouldEndAWaitWhenItsThreadIsInterruptedAndKeepTheFutureForItsOutcome() throws Exception {
        final FutureState f = new FutureState(() -> "Solver.step on Solver#3");
        final AtomicReference<Throwable> thrown = new AtomicReference<>();
        final AtomicBoolean flagKept = new AtomicBoolean();
        final CountDownLatch waiting = new CountDownLatch(1);
        final Thread waiter = Thread.ofPlatform().start(() -> {
            waiting.countDown();
            try {
                f.await(Spin.NONE);
            } catch (Throwable t) {
                thrown.set(t);
                flagKept.set(Thread.currentThread().isInterrupted());
            }
        });
        waiting.await();
        while (waiter.getState() != Thread.State.WAITING) { // parked in the future's wait
            Thread.onSpinWait();
        }
        waiter.interrupt();
        waiter.join(10_000);
        assertInstanceOf(WaitInterruptedException.class, thrown.get());
        assertTrue(
                thrown.get().getMessage().contains("Solver.step on Solver#3"),
                thrown.get().getMessage());
        assertTrue(flagKept.get(), "the interrupt flag stays set");
        assertFalse(f.isDone());
        f.complete(5);
        assertEquals(5, f.await(Spin.NONE));
    }

    @Test
    void shouldEndATimedWaitWhenItsThreadIsInterrupted() {
        final FutureState f = new FutureState(() -> "Solver.step on Solver#3");
        Thread.currentThread().interrupt();
        try {
            assertThrows(WaitInterruptedException.class, () -> f.await(Spin.NONE, 10_000_000_000L));
            assertTrue(Thread.interrupted(), "the flag stays set (and is cleared here)");
        } finally {
            Thread.interrupted();
        }
    }

    /** A waiter that spun and yielded in vain, and parked, is woken by the outcome handed to it. */
    @Test
    void shouldWakeAWaiterThatParkedWhenTheOutcomeComes() throws Exception {
        final FutureState f = new FutureState(() -> "Solver.step on Solver#4");
        final AtomicReference<Object> got = new AtomicReference<>();
        final Thread waiter = Thread.ofPlatform().start(() -> got.set(f.await(new Spin(1_000))));
        try {
            while (waiter.getState() != Thread.State.WAITING) { // past the spin and the yields, parked
                Thread.onSpinWait();
            }
            f.complete(9);
            waiter.join(10_000);
            assertFalse(waiter.isAlive(), "the waiter returned");
            assertEquals(9, got.get());
        } finally {
            f.complete(0);
            waiter.interrupt();
        }
    }
}
