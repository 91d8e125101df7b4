package org.troupe.core.internal;

/**
 * How long a waiter spins before it parks, adapted to the waits it has seen. Spinning pays when what is awaited
 * usually comes within the spin time: a park and unpark then cost tens of microseconds more. When it usually comes
 * later, spinning only takes a core from the threads that would bring it (our machines have two), so the waiter
 * parks at once until a wait is short again. Shared by the waits of one kind (the calls through one proxy, the
 * requests of one body); racy updates are harmless.
 */
public final class Spin {
    /** For waits that should not spin (or cannot wait: the future is known to be done). */
    public static final Spin NONE = new Spin(0);

    private final long maxNanos;
    private volatile boolean pays = true;

    public Spin(final long maxNanos) {
        this.maxNanos = maxNanos;
    }

    /** How long the next wait should spin. */
    public long nanos() {
        return pays ? maxNanos : 0;
    }

    /** Records how long a wait took, spinning and parking together. */
    public void waited(final long nanos) {
        final boolean p = nanos <= maxNanos;
        if (p != pays) {
            pays = p;
        }
    }
}
