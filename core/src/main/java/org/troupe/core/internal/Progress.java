package org.troupe.core.internal;

import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Lets a thread that spins while it waits (a caller touching a future, an idle active object) read what has arrived
 * on the transports itself, as an MPI library's waiting call drives its progress engine. The reply or request it
 * waits for is then handled by the one thread already running, instead of waking an event-loop thread that must
 * first win a core from the spinners (on a two-core host, there may be none free).
 */
public final class Progress {
    /** Reads what has arrived, without blocking and without waiting for another reader. */
    @FunctionalInterface
    public interface Poller {
        void poll();
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

    /** One step of a spinning wait: polls every transport of this JVM once. */
    public static void poll() {
        for (final Poller p : POLLERS) {
            p.poll();
        }
    }
}
