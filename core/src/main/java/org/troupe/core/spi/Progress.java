package org.troupe.core.spi;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Lets a thread that spins while it waits (a caller touching a future, an idle active object, a blocked MPI
 * receive) read what has arrived on the transports itself, as an MPI library's waiting call drives its progress
 * engine. The reply or request it waits for is then handled by the one thread already running, instead of waking
 * an event-loop thread that must first win a core from the spinners.
 *
 * <p>While some thread spins, a transport may stop watching its sockets from its event loops (each arrival would
 * wake one, only to find the spinner reading): so every spinning wait is bracketed by {@link #startSpinning()} and
 * {@link #stopSpinning(int)}, and a waiter calls {@link #beforePark()} before it parks, so that the event loops watch
 * again when nobody polls.
 */
public final class Progress {
    /** A transport's side: reads what has arrived, and watches its sockets again when asked. */
    public interface Poller {
        /** Reads what has arrived, without blocking and without waiting for another reader. */
        void poll();

        /** Nobody may be left polling: the transport's event loops must watch every socket again. */
        void watchAgain();

        /** A thread of this JVM starts a spinning wait ({@link #startSpinning()}), and so will poll. */
        default void spinStarted() {}

        /**
         * A thread's spinning wait ended ({@link #stopSpinning(int)}): a transport that counts them knows when the
         * last one stops, after which nobody polls until the next starts.
         */
        default void spinStopped() {}
    }

    private static final CopyOnWriteArrayList<Poller> POLLERS = new CopyOnWriteArrayList<>();
    /**
     * Spinning threads, counted in padded stripes (a thread keeps to one), so that the two ends of a hand-off in
     * one JVM do not bounce one counter's cache line between their cores at every call; with the time each stripe
     * last stopped spinning. Stripe {@code i} is at {@code i * PAD}.
     */
    private static final int STRIPES = 16;

    private static final int PAD = 16;
    private static final AtomicLongArray SPINNERS = new AtomicLongArray(STRIPES * PAD);
    private static final AtomicLongArray LAST_SPIN_END = new AtomicLongArray(STRIPES * PAD);
    private static final AtomicInteger NEXT_STRIPE = new AtomicInteger();
    private static final ThreadLocal<Integer> STRIPE =
            ThreadLocal.withInitial(() -> (NEXT_STRIPE.getAndIncrement() % STRIPES) * PAD);

    private Progress() {}

    public static void register(final Poller poller) {
        POLLERS.add(poller);
    }

    public static void unregister(final Poller poller) {
        POLLERS.remove(poller);
    }

    /** One step of a spinning wait: polls every transport of this JVM once. */
    public static void poll() {
        for (final Poller p : POLLERS) {
            p.poll();
        }
    }

    /**
     * A thread starts a spinning wait, polling as it goes; returns the token to give {@link #stopSpinning(int)}.
     * Free when no transport is registered: nobody then needs to know.
     */
    public static int startSpinning() {
        if (POLLERS.isEmpty()) {
            return -1;
        }
        final int stripe = STRIPE.get();
        SPINNERS.incrementAndGet(stripe);
        try {
            for (final Poller p : POLLERS) {
                p.spinStarted();
            }
        } catch (RuntimeException | Error e) { // the caller gets no token to stop with: stop here
            stopSpinning(stripe);
            throw e;
        }
        return stripe;
    }

    /** A thread's spinning wait ends (it got what it waited for, or it will park). */
    public static void stopSpinning(final int token) {
        if (token >= 0) {
            LAST_SPIN_END.lazySet(token, System.nanoTime());
            SPINNERS.decrementAndGet(token);
            for (final Poller p : POLLERS) {
                p.spinStopped();
            }
        }
    }

    /** Whether a thread is in a spinning wait now. */
    public static boolean someoneSpins() {
        for (int i = 0; i < STRIPES * PAD; i += PAD) {
            if (SPINNERS.get(i) > 0) {
                return true;
            }
        }
        return false;
    }

    /** Whether a thread spins now, or stopped spinning less than {@code nanos} ago (and so likely spins again soon). */
    public static boolean spunWithin(final long nanos) {
        final long now = System.nanoTime();
        for (int i = 0; i < STRIPES * PAD; i += PAD) {
            if (SPINNERS.get(i) > 0 || now - LAST_SPIN_END.get(i) < nanos) {
                return true;
            }
        }
        return false;
    }

    /** Called by a waiter about to park, after {@link #stopSpinning(int)} if it spun: transports watch their sockets. */
    public static void beforePark() {
        for (final Poller p : POLLERS) {
            p.watchAgain();
        }
    }
}
