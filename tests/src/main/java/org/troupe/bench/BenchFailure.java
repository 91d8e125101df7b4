package org.troupe.bench;

/** A benchmark could not produce a figure worth printing; {@link Bench} reports it on stderr and exits 1. */
public final class BenchFailure extends Exception {
    public BenchFailure(final String message) {
        super(message);
    }

    public BenchFailure(final String message, final Throwable cause) {
        super(message, cause);
    }
}
