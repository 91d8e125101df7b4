package org.troupe.core.internal;

import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.troupe.core.spi.Spin;

/**
 * How an idle body waits for its next request: it spins for a while first (and polls the transports meanwhile),
 * because a request often follows within microseconds and waking a parked thread costs tens of them, as {@link Spin}
 * says (not while the host's cores are all taken), then yields a few times, then parks
 * until a sender wakes it or the body is terminated. Few idle bodies of the JVM spin at once.
 *
 * <p>{@link #await} runs in the body's own thread; {@link #parked()} is read by any sender after it offered its
 * request to the inbox, and the body's thread says it parks before it looks at the inbox a last time: one of the two
 * sees the other, so no request is left unserved with the body parked.
 */
final class IdleWait {
    private static final int MAX_IDLE_SPINNERS =
            Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    private static final AtomicInteger IDLE_SPINNERS = new AtomicInteger();
    /** Whether the wait is over: a request may have come, or the body was terminated. */
    private static final Predicate<IdleWait> WOKEN = w -> !w.inbox.isEmpty() || !w.body.isActive();

    /** Whose activity waits: whether it is still active, and what a thread dump shows it parked on. */
    private final Body body;

    private final Queue<Request> inbox;
    private final Spin spin;
    private final Copier copier;
    /** Set while the body's thread parks (or is about to), so that a sender knows to unpark it. */
    private volatile boolean parked;

    IdleWait(final Body body, final Queue<Request> inbox, final long spinNanos, final Copier copier) {
        this.body = body;
        this.inbox = inbox;
        this.spin = new Spin(spinNanos);
        this.copier = copier;
    }

    /** Whether the body's thread parks, or is about to: a sender that offered a request then unparks it. */
    boolean parked() {
        return parked;
    }

    /**
     * Returns when a request may have arrived or the body was terminated. Returns whether the thread was
     * interrupted meanwhile (the interrupt is cleared so that parking keeps working).
     */
    boolean await() {
        final long start = System.nanoTime();
        // Few idle bodies may spin at once: a spinning virtual thread holds its carrier, and with many bodies
        // spinning the ones that have work could not run (16 members in a JVM of 2 cores served 8x slower). A body
        // gives its place up when it stops spinning: one parked holding it would keep every other from spinning.
        boolean holdsPlace = IDLE_SPINNERS.incrementAndGet() <= MAX_IDLE_SPINNERS;
        if (!holdsPlace) {
            IDLE_SPINNERS.decrementAndGet();
        }
        final boolean spinning = holdsPlace;
        try {
            if ((spinning ? spin : Spin.NONE).spinThenYield(this, WOKEN)) {
                if (spinning) {
                    spin.waited(System.nanoTime() - start);
                }
                return false;
            }
            if (holdsPlace) {
                IDLE_SPINNERS.decrementAndGet();
                holdsPlace = false;
            }
            copier.idle();
            parked = true;
            if (inbox.isEmpty() && body.isActive()) { // checked after saying so: a sender now sees it, and unparks
                LockSupport.park(body);
            }
            parked = false;
            if (spinning) {
                spin.waited(System.nanoTime() - start);
            }
            return Thread.interrupted();
        } finally {
            if (holdsPlace) {
                IDLE_SPINNERS.decrementAndGet();
            }
        }
    }
}
