package org.troupe.core.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.troupe.core.spi.Spin.Phase;

class SpinTest {
    /** Long enough that a spin is never cut short by its time on a loaded machine before the test ends it. */
    private static final long SPIN_NANOS = 200_000;

    private static final BooleanSupplier IDLE = () -> false;

    @Test
    void shouldSpinThenYieldThenParkInThatOrderWhenNothingComes() {
        final List<Phase> phases = new ArrayList<>();
        final Spin spin = new Spin(SPIN_NANOS, true, IDLE, phases::add);
        final AtomicBoolean done = new AtomicBoolean();
        assertFalse(spin.spinThenYield(done, AtomicBoolean::get), "nothing came: the caller must park");
        assertEquals(List.of(Phase.SPIN, Phase.YIELD, Phase.PARK), phases);
    }

    @Test
    void shouldParkAtOnceWhenTheHostIsCrowded() {
        final List<Phase> phases = new ArrayList<>();
        final Spin spin = new Spin(SPIN_NANOS, true, () -> true, phases::add);
        assertFalse(spin.spinThenYield(new AtomicBoolean(), AtomicBoolean::get));
        assertEquals(List.of(Phase.PARK), phases);
        assertEquals(0, spin.nanos(), "a crowded host gives no spin time");
    }

    @Test
    void shouldStopSpinningAndParkWithoutYieldingWhenTheHostBecomesCrowded() {
        final List<Phase> phases = new ArrayList<>();
        final AtomicInteger looks = new AtomicInteger();
        // Idle when the wait starts (looked at twice: before the spin and for its length), crowded from then on.
        final Spin spin = new Spin(Long.MAX_VALUE / 4, true, () -> looks.incrementAndGet() > 2, phases::add);
        assertFalse(spin.spinThenYield(new AtomicBoolean(), AtomicBoolean::get));
        assertEquals(List.of(Phase.SPIN, Phase.PARK), phases);
    }

    @Test
    void shouldReturnAWaiterWokenWhileItSpins() {
        assertWokenDuring(Phase.SPIN);
    }

    @Test
    void shouldReturnAWaiterWokenWhileItYields() {
        assertWokenDuring(Phase.YIELD);
    }

    /** The hand-off happens as the wait enters {@code phase}: the wait returns true and takes no later phase. */
    private static void assertWokenDuring(final Phase phase) {
        final List<Phase> phases = new ArrayList<>();
        final AtomicBoolean done = new AtomicBoolean();
        final Spin spin = new Spin(SPIN_NANOS, true, IDLE, p -> {
            phases.add(p);
            if (p == phase) {
                done.set(true);
            }
        });
        assertTrue(spin.spinThenYield(done, AtomicBoolean::get));
        assertEquals(phase, phases.getLast(), "no phase after the one it was woken in: " + phases);
    }

    @Test
    void shouldNotWaitAtAllWhenAlreadyDone() {
        final List<Phase> phases = new ArrayList<>();
        final Spin spin = new Spin(SPIN_NANOS, true, IDLE, phases::add);
        assertTrue(spin.spinThenYield(new AtomicBoolean(true), AtomicBoolean::get));
        assertEquals(List.of(), phases);
    }

    @Test
    void shouldNeitherSpinNorYieldForAWaitThatMustNotSpin() {
        final List<Phase> phases = new ArrayList<>();
        final Spin spin = new Spin(0, true, IDLE, phases::add);
        assertFalse(spin.spinThenYield(new AtomicBoolean(), AtomicBoolean::get));
        assertEquals(List.of(Phase.PARK), phases);
    }

    @Test
    void shouldStopSpinningAfterLongWaitsExceptToProbeAndSpinAgainAfterAShortOne() {
        final Spin spin = new Spin(1_000, true, IDLE, null);
        for (int i = 0; i < 8; i++) {
            spin.waited(2_000);
        }
        final List<Long> budgets = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            budgets.add(spin.nanos());
        }
        assertEquals(List.of(0L, 0L, 0L, 1_000L), budgets, "one wait in four probes");
        spin.waited(500);
        assertEquals(1_000, spin.nanos());
    }

    @Test
    void shouldKeepAFixedSpinWhateverTheWaitsTook() {
        final Spin spin = Spin.fixed(1_000);
        for (int i = 0; i < 20; i++) {
            spin.waited(1_000_000);
        }
        // Unless the host running the test is crowded right now, in which case the budget is none.
        final long budget = spin.nanos();
        assertTrue(budget == 1_000 || budget == 0 && HostLoad.crowded(), "budget " + budget);
    }

    @Test
    void shouldReadTheRunnableCountOfALoadLine() {
        assertEquals(3, parse("0.52 0.58 0.59 3/812 4242\n"));
        assertEquals(17, parse("12.00 8.10 4.00 17/1203 99"));
        assertEquals(0, parse("0.52 0.58"), "no count: none");
        assertEquals(0, parse("a b c d/e"), "not a number: none");
    }

    /**
     * A waiter whose thread is interrupted (a rank's thread told to stop, a caller's timeout) reads the host's load:
     * the read must neither close the file for every later waiter of the JVM, which would freeze the host's state
     * at its last reading for good, nor clear the thread's interrupt.
     */
    @Test
    void shouldKeepReadingTheHostsLoadAfterAnInterruptedThreadReadIt() {
        Thread.currentThread().interrupt();
        final boolean stillInterrupted;
        try {
            HostLoad.running();
        } finally {
            stillInterrupted = Thread.interrupted();
        }
        assertTrue(stillInterrupted, "the reader's interrupt is kept");
        // This thread is running as it reads: one runnable thread at least, unless the file is no longer read.
        assertTrue(HostLoad.running() > 0, "the load is read after an interrupted reader");
    }

    private static int parse(final String line) {
        final byte[] b = line.getBytes(StandardCharsets.US_ASCII);
        return HostLoad.parseRunning(b, b.length);
    }
}
