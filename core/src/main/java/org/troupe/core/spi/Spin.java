package org.troupe.core.spi;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * How a waiter waits before it parks, the one policy of every spinning wait (a caller touching a future, an idle
 * active object, a blocked MPI receive): it spins, then yields a few times, then parks.
 *
 * <p>It spins only while spinning pays and the host has a core for the thread it waits for. Spinning pays when what
 * is awaited usually comes within the spin time: a park and unpark then cost tens of microseconds more. When it
 * usually comes later, spinning only takes a core from the threads that would bring it (a host may have just two),
 * so the waiter parks at once until a wait is short again ({@link #waited}). And when the host has more runnable
 * threads than cores (another program's busy threads, more ranks than cores), a spinner keeps the awaited thread
 * waiting for a core for a scheduler's time slice, while a thread woken from a park is run at once: so it parks at
 * once, and an oversubscribed host costs a blocking hand-off, not a time slice per wait (see {@code HostLoad} for
 * how a crowded host is told). On a host that is not crowded a few yields come between the spin and the park: one
 * gives the core to the awaited thread if it is ready to run, at the cost of a system call; not on a crowded one,
 * where it would give the core to a busy thread for its whole time slice.
 *
 * <p>Shared by the waits of one kind (the calls through one proxy, the requests of one body, a job's receives);
 * racy updates are harmless.
 */
public final class Spin {
    /** Whether the host is crowded, for the waits of this JVM ({@link #crowded()}); before {@link #NONE}. */
    private static final BooleanSupplier HOST = Spin::crowded;

    /** For waits that should not spin (or cannot wait: the future is known to be done). */
    public static final Spin NONE = new Spin(0);

    /** The phases of a wait, in the order it takes them. */
    enum Phase {
        SPIN,
        YIELD,
        PARK
    }

    private static final int PROBE_EVERY = 4;
    private static final int LONG_WAITS_TO_STOP = 8;
    /** The yields between the spin and the park. */
    static final int YIELDS = 4;
    /** Spin steps between two looks at whether the host is crowded (each look reads the clock). */
    private static final int STEPS_PER_LOOK = 64;

    private final long maxNanos;
    private final boolean learns;
    private final BooleanSupplier crowded;
    private final Consumer<Phase> phases;
    private volatile boolean pays = true;
    private int unspun;
    private int longWaits;

    /** Whether this JVM's waits back off on a crowded host (troupe.core.waitBackoff). */
    private static volatile boolean backOff = true;

    /** Spinning at most {@code maxNanos} per wait, less while long waits show that spinning does not pay. */
    public Spin(final long maxNanos) {
        this(maxNanos, true, HOST, null);
    }

    /**
     * Whether this JVM's waits park at once while the host has more runnable threads than cores (the default), or
     * spin as their budget says whatever it runs ({@code troupe.core.waitBackoff}, set by the runtime as it starts).
     */
    public static void backOffWhenCrowded(final boolean on) {
        backOff = on;
    }

    /** Whether this JVM's waits back off on a crowded host now ({@link #backOffWhenCrowded}). */
    public static boolean backsOffWhenCrowded() {
        return backOff;
    }

    private static boolean crowded() {
        return backOff && HostLoad.crowded();
    }

    /**
     * @param crowded whether the host has more runnable threads than cores
     * @param phases told each phase a wait enters (for tests), or null
     */
    Spin(final long maxNanos, final boolean learns, final BooleanSupplier crowded, final Consumer<Phase> phases) {
        this.maxNanos = maxNanos;
        this.learns = learns;
        this.crowded = crowded;
        this.phases = phases;
    }

    /**
     * Spinning {@code maxNanos} per wait whatever the waits took (for waits whose length says nothing of the next
     * one's, as an MPI rank's receives between phases of computing); still not while the host is crowded.
     */
    public static Spin fixed(final long maxNanos) {
        return new Spin(maxNanos, false, HOST, null);
    }

    /**
     * How long the next wait should spin: 0 while the host is crowded. While spinning does not pay, one wait in
     * {@value #PROBE_EVERY} spins anyway: a wait can be long only because nobody spins (the thread that answers parks
     * too, and waking it costs more than the answer), and only a spinning wait finds out.
     */
    public long nanos() {
        return maxNanos <= 0 || crowded.getAsBoolean() ? 0 : budget();
    }

    /** {@link #nanos()} on a host known not to be crowded. */
    private long budget() {
        if (pays) {
            return maxNanos;
        }
        if (++unspun >= PROBE_EVERY) { // racy: an occasional extra or missed probe does no harm
            unspun = 0;
            return maxNanos;
        }
        return 0;
    }

    /**
     * The waits before a park: returns true as soon as {@code done} holds for {@code target}, or false when the
     * caller should park (having called {@link Progress#beforePark()}, so it must only park, and look at
     * {@code done} again after it announced the park to whoever will unpark it). Spins for {@link #nanos()} at most,
     * then yields {@value #YIELDS} times, polling the transports at each step; neither while the host is crowded
     * ({@link Progress}: bracketed by start and stop spinning). {@code done} is a predicate on a target rather than
     * a capturing lambda, so that a wait allocates nothing.
     */
    public <T> boolean spinThenYield(final T target, final Predicate<? super T> done) {
        return spinThenYield(target, done, Long.MAX_VALUE);
    }

    /** As {@link #spinThenYield(Object, Predicate)}, spinning {@code limitNanos} at most (a timed wait's time). */
    public <T> boolean spinThenYield(final T target, final Predicate<? super T> done, final long limitNanos) {
        if (done.test(target)) {
            return true;
        }
        // On a crowded host a yield gives the core to a busy thread for its time slice, and a spin keeps the
        // awaited thread from one: straight to the park.
        if (maxNanos > 0 && !crowded.getAsBoolean()) {
            final int spinning = Progress.startSpinning();
            try {
                if (spinAndYield(target, done, Math.min(budget(), limitNanos))) { // not crowded: looked above
                    return true;
                }
            } finally {
                Progress.stopSpinning(spinning);
            }
        }
        entered(Phase.PARK);
        Progress.beforePark();
        return false;
    }

    /** The spin and the yields: whether {@code done} came to hold. */
    private <T> boolean spinAndYield(final T target, final Predicate<? super T> done, final long spinNanos) {
        if (spinNanos > 0) {
            entered(Phase.SPIN);
            final long end = System.nanoTime() + spinNanos;
            for (int steps = 1; ; steps++) {
                step();
                if (done.test(target)) {
                    return true;
                }
                if (steps % STEPS_PER_LOOK == 0) {
                    if (crowded.getAsBoolean()) {
                        return false; // no yields either, as above
                    }
                    if (System.nanoTime() - end >= 0) {
                        break;
                    }
                }
            }
        }
        entered(Phase.YIELD);
        for (int i = 0; i < YIELDS; i++) {
            Thread.yield();
            Progress.poll();
            if (done.test(target)) {
                return true;
            }
        }
        return false;
    }

    private void entered(final Phase phase) {
        if (phases != null) {
            phases.accept(phase);
        }
    }

    /**
     * One step of a spinning wait: reads what the transports have received (the awaited reply or request may be
     * among it, and this thread is already running), then pauses the core briefly.
     */
    public static void step() {
        Progress.poll();
        Thread.onSpinWait();
    }

    /**
     * Records how long a wait took, spinning and parking together. One short wait makes spinning pay again; it
     * stops paying only after {@value #LONG_WAITS_TO_STOP} long ones in a row, so that a single hiccup (a
     * collection, a compilation) does not make both ends of a busy exchange park and stay parked.
     */
    public void waited(final long nanos) {
        if (!learns) {
            return;
        }
        if (nanos <= maxNanos) {
            longWaits = 0;
            if (!pays) {
                pays = true;
            }
        } else if (++longWaits >= LONG_WAITS_TO_STOP && pays) {
            pays = false;
        }
    }
}
