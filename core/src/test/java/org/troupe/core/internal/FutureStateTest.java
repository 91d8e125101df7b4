package org.troupe.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.troupe.core.CallFailedException;
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
        final Exception cause = new java.io.IOException("disk");
        f.fail(cause);
        final CallFailedException e = assertThrows(CallFailedException.class, () -> f.await(new Spin(1_000)));
        assertSame(cause, e.getCause());
        assertTrue(e.getMessage().contains("Solver.step(int)"), e.getMessage());
    }
}
