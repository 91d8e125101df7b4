package org.troupe.core.spi;

/**
 * How long a waiter spins before it parks, adapted to the waits it has seen. Spinning pays when what is awaited
 * usually comes within the spin time: a park and unpark then cost tens of microseconds more. When it usually comes
 * later, spinning only takes a core from the threads that would bring it (a host may have just two), so the waiter
 * parks at once until a wait is short again. Shared by the waits of one kind (the calls through one proxy, the
 * requests of one body); racy updates are harmless.
 */
public final class Spin {
    /** For waits that should not spin (or cannot wait: the future is known to be done). */
    public static final Spin NONE = new Spin(0);

    private static final int PROBE_EVERY = 4;
    private static final int LONG_WAITS_TO_STOP = 8;

    private final long maxNanos;
    private volatile boolean pays = true;
    private int unspun;
    private int longWaits;

    /** Spinning at most {@code maxNanos} per wait. */
    public Spin(final long maxNanos) {
        this.maxNanos = maxNanos;
    }

    /**
     * How long the next wait should spin. While spinning does not pay, one wait in {@value #PROBE_EVERY} spins
     * anyway: a wait can be long only because nobody spins (the thread that answers parks too, and waking it costs
     * more than the answer), and only a spinning wait finds out.
     */
    public long nanos() {
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
