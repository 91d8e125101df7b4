package org.troupe.groups.internal;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Keeps the barriers of one SPMD group: an active object, so its state needs no locks. Each arrival gets the
 * barrier's completion, which is completed when the last rank arrives; the name is then free for the next round.
 * Public only because active objects are created by class name; not for applications.
 */
public class BarrierKeeper {
    private final int size;
    private final Map<String, Round> open = new HashMap<>();

    public BarrierKeeper(final int size) {
        this.size = size;
    }

    /** Arrival of {@code rank} at barrier {@code name}; the result completes once every rank has arrived. */
    public CompletableFuture<Boolean> arrive(final String name, final int rank) {
        if (rank < 0 || rank >= size) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("rank " + rank + " is not in a group of "
                + size));
        }
        final Round round = open.computeIfAbsent(name, n -> new Round());
        if (round.arrived.get(rank)) {
            return CompletableFuture.failedFuture(new IllegalStateException("rank " + rank
                + " arrived twice at barrier '" + name + "' before the others"));
        }
        round.arrived.set(rank);
        if (round.arrived.cardinality() == size) {
            open.remove(name);
            round.done.complete(Boolean.TRUE);
        }
        return round.done;
    }

    private static final class Round {
        final BitSet arrived = new BitSet();
        final CompletableFuture<Boolean> done = new CompletableFuture<>();
    }
}
