package org.troupe.core.internal;

import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Lets a thread that spins while it waits (a caller touching a future, an idle active object) read what has arrived
 * on the transports itself, as an MPI library's waiting call drives its progress engine. The reply or request it
 * waits for is then handled by the one thread already running, instead of waking an event-loop thread that must
 * first win a core from the spinners (our machines have two).
 */
public final class Progress {
    /** A transport's side of it. */
    public interface Poller {
        /** Reads what has arrived, without blocking and without waiting for another reader. */
        void poll();

        /** A thread that polled stops spinning and parks: the transport's own threads must watch again. */
        void parking();
    }

    private static final CopyOnWriteArrayList<Poller> POLLERS = new CopyOnWriteArrayList<>();

    private Progress() {
    }

    public static void register(final Poller poller) {
        POLLERS.add(poller);
    }

    public static void unregister(final Poller poller) {
        POLLERS.remove(poller);
    }

    /** Called by a spinning thread before it parks. */
    public static void parking() {
        for (final Poller p : POLLERS) {
            p.parking();
        }
    }

    /** One step of a spinning wait: polls every transport of this JVM once. */
    public static void poll() {
        for (final Poller p : POLLERS) {
            p.poll();
        }
    }
}
