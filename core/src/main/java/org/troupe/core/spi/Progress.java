package org.troupe.core.spi;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lets a thread that spins while it waits (a caller touching a future, an idle active object, a blocked MPI
 * receive) read what has arrived on the transports itself, as an MPI library's waiting call drives its progress
 * engine. The reply or request it waits for is then handled by the one thread already running, instead of waking
 * an event-loop thread that must first win a core from the spinners.
 *
 * <p>While some thread spins, a transport may stop watching its sockets from its event loops (each arrival would
 * wake one, only to find the spinner reading): so every spinning wait is bracketed by {@link #startSpinning()} and
 * {@link #stopSpinning()}, and a waiter calls {@link #beforePark()} before it parks, so that the event loops watch
 * again when nobody polls.
 */
public final class Progress {
    /** A transport's side: reads what has arrived, and watches its sockets again when asked. */
    public interface Poller {
        /** Reads what has arrived, without blocking and without waiting for another reader. */
        void poll();

        /** Nobody may be left polling: the transport's event loops must watch every socket again. */
        void watchAgain();
    }

    private static final CopyOnWriteArrayList<Poller> POLLERS = new CopyOnWriteArrayList<>();
    private static final AtomicInteger SPINNERS = new AtomicInteger();
    private static volatile long lastSpinEnd = System.nanoTime();

    private Progress() {
    }

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

    /** A thread starts a spinning wait, polling as it goes. */
    public static void startSpinning() {
        SPINNERS.incrementAndGet();
    }

    /** A thread's spinning wait ends (it got what it waited for, or it will park). */
    public static void stopSpinning() {
        lastSpinEnd = System.nanoTime();
        SPINNERS.decrementAndGet();
    }

    /** Whether a thread is in a spinning wait now. */
    public static boolean someoneSpins() {
        return SPINNERS.get() > 0;
    }

    /** Whether a thread spins now, or stopped spinning less than {@code nanos} ago (and so likely spins again soon). */
    public static boolean spunWithin(final long nanos) {
        return SPINNERS.get() > 0 || System.nanoTime() - lastSpinEnd < nanos;
    }

    /** Called by a waiter about to park, after {@link #stopSpinning()} if it spun: transports watch their sockets. */
    public static void beforePark() {
        for (final Poller p : POLLERS) {
            p.watchAgain();
        }
    }
}
