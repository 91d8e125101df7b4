package org.troupe.core.remote;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.troupe.core.internal.FutureState;

/**
 * The futures a peer passed on to us, by the id it gave them, whose values it will push when they are known. A
 * value may arrive before the frame that carries the future itself (both are sent concurrently): it waits here.
 */
final class PushedFutures {
    private final Map<Long, FutureState> awaited = new ConcurrentHashMap<>();
    private final Map<Long, Outcome> early = new ConcurrentHashMap<>();
    /** Futures read so far in the frame for several objects being read; only its reading thread touches it. */
    private Map<Long, FutureState> inFrame;

    /** A value or a failure pushed by the peer. */
    record Outcome(Object value, Throwable failure) {
        void settle(final FutureState f) {
            if (failure != null) {
                f.fail(failure);
            } else {
                f.complete(value);
            }
        }
    }

    /**
     * The local future for the peer's future {@code id}: within one frame read for several objects, the same one
     * each time the id is read, as the peer pushes each value once.
     */
    FutureState incoming(final long id, final Supplier<String> what) {
        final Map<Long, FutureState> shared = inFrame;
        final FutureState seen = shared == null ? null : shared.get(id);
        if (seen != null) {
            return seen;
        }
        final FutureState state = new FutureState(what);
        await(id, state);
        if (shared != null) {
            shared.put(id, state);
        }
        return state;
    }

    /** Registers a local future that the peer will push the value of. */
    void await(final long id, final FutureState state) {
        final Outcome already = early.remove(id);
        if (already != null) {
            already.settle(state);
            return;
        }
        awaited.put(id, state);
        final Outcome raced = early.remove(id);
        if (raced != null && awaited.remove(id) != null) {
            raced.settle(state);
        }
    }

    /**
     * The peer pushed the outcome of its future {@code id}; false, keeping nothing, if it would be more than
     * {@code maxEarly} values waiting for their futures: a peer pushing values it never passes on.
     */
    boolean pushed(final long id, final Outcome outcome, final int maxEarly) {
        final FutureState f = awaited.remove(id);
        if (f != null) {
            outcome.settle(f);
            return true;
        }
        if (early.size() >= maxEarly) {
            return false;
        }
        early.put(id, outcome);
        return true;
    }

    /** While {@code reading} runs, a future read twice in it is one future (a frame for several objects). */
    void withinOneFrame(final Runnable reading) {
        inFrame = new HashMap<>();
        try {
            reading.run();
        } finally {
            inFrame = null;
        }
    }

    /** Fails every awaited future (the peer is gone). */
    void failAll(final Supplier<RuntimeException> failure) {
        for (final Long id : awaited.keySet()) {
            final FutureState f = awaited.remove(id);
            if (f != null) {
                f.fail(failure.get());
            }
        }
    }
}
