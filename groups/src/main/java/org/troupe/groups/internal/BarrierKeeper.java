package org.troupe.groups.internal;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
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
    private final Map<String, int[]> arrivalsAt = new HashMap<>();
    private final List<NeighbourWait> waiting = new ArrayList<>();

    public BarrierKeeper(final int size) {
        this.size = size;
    }

    /** Arrival of {@code rank} at barrier {@code name}; the result completes once every rank has arrived. */
    public CompletableFuture<Boolean> arrive(final String name, final int rank) {
        if (rank < 0 || rank >= size) {
            return CompletableFuture.failedFuture(
                    new IllegalArgumentException("rank " + rank + " is not in a group of " + size));
        }
        final Round round = open.computeIfAbsent(name, n -> new Round());
        if (round.arrived.get(rank)) {
            return CompletableFuture.failedFuture(new IllegalStateException(
                    "rank " + rank + " arrived twice at barrier '" + name + "' before the others"));
        }
        round.arrived.set(rank);
        if (round.arrived.cardinality() == size) {
            open.remove(name);
            round.done.complete(Boolean.TRUE);
        }
        return round.done;
    }

    /**
     * Arrival of {@code rank} at neighbour barrier {@code name}: its k-th arrival there completes once each of
     * {@code neighbours} has arrived there k times too.
     */
    public CompletableFuture<Boolean> arriveAmong(final String name, final int rank, final int[] neighbours) {
        for (final int n : neighbours) {
            if (n < 0 || n >= size) {
                return CompletableFuture.failedFuture(
                        new IllegalArgumentException("neighbour " + n + " is not a rank of a group of " + size));
            }
        }
        if (rank < 0 || rank >= size) {
            return CompletableFuture.failedFuture(
                    new IllegalArgumentException("rank " + rank + " is not in a group of " + size));
        }
        final int[] arrivals = arrivalsAt.computeIfAbsent(name, n -> new int[size]);
        final NeighbourWait w =
                new NeighbourWait(name, ++arrivals[rank], neighbours.clone(), new CompletableFuture<>());
        waiting.add(w);
        waiting.removeIf(x -> x.name.equals(name) && x.release(arrivals));
        return w.done;
    }

    private record NeighbourWait(String name, int round, int[] neighbours, CompletableFuture<Boolean> done) {
        /** Completes if every neighbour has arrived as often as this waiter had; whether it did. */
        boolean release(final int[] arrivals) {
            for (final int n : neighbours) {
                if (arrivals[n] < round) {
                    return false;
                }
            }
            done.complete(Boolean.TRUE);
            return true;
        }
    }

    private static final class Round {
        final BitSet arrived = new BitSet();
        final CompletableFuture<Boolean> done = new CompletableFuture<>();
    }
}
