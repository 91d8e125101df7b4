package org.troupe.bench.serialization;

import java.util.Optional;
import org.troupe.bench.BenchFailure;

/**
 * An implementation bound to a case's value and proven to round-trip it, both ways the benchmark uses: the
 * set-up message that {@code read} decodes, and what {@code write} produces. Nothing is measured before this.
 */
record Prepared(BenchCase benchCase, Impl impl, BoundCodec codec) {
    static Prepared of(final BenchCase benchCase, final Impl impl) throws BenchFailure {
        final Object value = benchCase.build();
        final BoundCodec codec;
        try {
            codec = impl.bind(benchCase, value);
            check(benchCase, value, codec.read(), "the set-up message");
            final int written = codec.write();
            if (written != codec.messageBytes()) {
                // write must measure the same steady-state message that read decodes.
                throw failure(
                        benchCase,
                        impl,
                        "write produced " + written + " bytes but the steady-state message has " + codec.messageBytes(),
                        null);
            }
            check(benchCase, value, codec.readLastWrite(), "the output of write");
        } catch (final RoundTripMismatch e) {
            throw failure(benchCase, impl, e.getMessage(), null);
        } catch (final BenchFailure e) {
            throw e;
        } catch (final Exception | StackOverflowError e) {
            throw failure(benchCase, impl, "failed to round-trip: " + e, e);
        }
        return new Prepared(benchCase, impl, codec);
    }

    String label() {
        return benchCase.name() + "/" + impl.name();
    }

    private static void check(final BenchCase benchCase, final Object original, final Object copy, final String what)
            throws RoundTripMismatch {
        if (copy == original) {
            throw new RoundTripMismatch("decoding " + what + " returned the original object itself");
        }
        final Optional<String> difference = benchCase.difference(original, copy);
        if (difference.isPresent()) {
            throw new RoundTripMismatch("decoding " + what + " gave a wrong copy: " + difference.get());
        }
    }

    private static BenchFailure failure(
            final BenchCase benchCase, final Impl impl, final String message, final Throwable cause) {
        return new BenchFailure(benchCase.name() + "/" + impl.name() + ": " + message, cause);
    }

    /** A copy that came back different; caught above and reported with the case and impl. */
    private static final class RoundTripMismatch extends Exception {
        RoundTripMismatch(final String message) {
            super(message);
        }
    }
}
