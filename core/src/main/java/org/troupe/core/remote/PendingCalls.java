package org.troupe.core.remote;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.internal.FutureState;

/**
 * The calls sent to one peer that await its reply, by call id (ids start at 1; 0 means one-way); with a deadline,
 * the calls whose reply has not come within it fail ({@link #expire}).
 */
final class PendingCalls {
    private static final Logger LOG = LoggerFactory.getLogger(PendingCalls.class);
    /** Calls made together (ids {@code first} to {@code first + count - 1}) and when they expire. */
    private record Sent(long first, int count, long deadline) {}

    private final Map<Long, FutureState> byId = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(1);
    private final long timeoutNanos;
    /** Oldest first (deadlines grow with ids); only with a deadline. */
    private final Queue<Sent> sent = new ConcurrentLinkedQueue<>();

    /** @param timeoutNanos how long a call may wait for its reply; 0 for as long as the peer lives */
    PendingCalls(final long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    /** Adds a pending call; returns its id. */
    long add(final FutureState f) {
        final long id = nextId.getAndIncrement();
        byId.put(id, f);
        noteSent(id, 1);
        return id;
    }

    /** {@code n} new pending calls with consecutive ids; returns the first id. */
    long addAll(final FutureState[] futures) {
        final long first = nextId.getAndAdd(futures.length);
        for (int i = 0; i < futures.length; i++) {
            byId.put(first + i, futures[i]);
        }
        noteSent(first, futures.length);
        return first;
    }

    private void noteSent(final long first, final int count) {
        if (timeoutNanos > 0) {
            sent.add(new Sent(first, count, System.nanoTime() + timeoutNanos));
        }
    }

    /** Forgets calls that could not be sent. */
    void remove(final long first, final int count) {
        for (int i = 0; i < count; i++) {
            byId.remove(first + i);
        }
    }

    /** The call the reply {@code id} answers, now no longer pending; null if there is none. */
    FutureState take(final long id) {
        return byId.remove(id);
    }

    /** Fails every pending call (the peer is gone); each exactly once, whoever else fails them concurrently. */
    void failAll(final Supplier<RuntimeException> failure) {
        for (final Long id : byId.keySet()) {
            final FutureState f = byId.remove(id);
            if (f != null) {
                f.fail(failure.get());
            }
        }
    }

    /**
     * Fails, with what {@code failure} makes of each, the calls still pending past their deadline at {@code now};
     * each is failed whatever the others' callbacks do.
     */
    void expire(final long now, final Function<FutureState, RuntimeException> failure) {
        final List<FutureState> expired = new ArrayList<>();
        for (Sent s = sent.peek(); s != null && now - s.deadline() >= 0; s = sent.peek()) {
            sent.poll();
            for (int i = 0; i < s.count(); i++) {
                final FutureState f = byId.remove(s.first() + i);
                if (f != null) {
                    expired.add(f);
                }
            }
        }
        for (final FutureState f : expired) {
            try {
                f.fail(failure.apply(f));
            } catch (Throwable t) { // a callback of the core's own that failed: the next calls must still expire
                LOG.warn("Failing {} past its deadline: {}", f.call(), t.toString());
            }
        }
    }
}
