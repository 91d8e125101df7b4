package org.troupe.bench;

/** A benchmark could not produce a figure worth printing; {@link Bench} reports it on stderr and exits 1. */
public final class BenchFailure extends Exception {
    public BenchFailure(final String message) {
        super(message);
    }

    public BenchFailure(final String message, final Throwable cause) {
        super(message, cause);
    }

    /** Fails unless an implementation's answer, checked before it is timed, was right. */
    public static void check(final boolean right, final String implementation) throws BenchFailure {
        if (!right) {
            throw new BenchFailure(implementation + " gave a wrong answer; nothing is timed");
        }
    }
}
