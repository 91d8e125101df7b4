package org.troupe.core.remote;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.troupe.core.internal.FutureState;

/** The calls sent to one peer that await its reply, by call id (ids start at 1; 0 means one-way). */
final class PendingCalls {
    private final Map<Long, FutureState> byId = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(1);

    /** Adds a pending call; returns its id. */
    long add(final FutureState f) {
        final long id = nextId.getAndIncrement();
        byId.put(id, f);
        return id;
    }

    /** {@code n} new pending calls with consecutive ids; returns the first id. */
    long addAll(final FutureState[] futures) {
        final long first = nextId.getAndAdd(futures.length);
        for (int i = 0; i < futures.length; i++) {
            byId.put(first + i, futures[i]);
        }
        return first;
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
}
