package org.troupe.core.instrument;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A few counts bumped together by the same threads, on cache lines of their own: the slots sit between eight
 * unused longs on each side, so that counts bumped by other threads (the other end of a link, a caller enqueueing
 * while a body serves) never share a line with them. Read without stopping anyone, for the meters.
 */
final class Tally {
    /** 64 bytes of longs on each side of the slots. */
    private static final int PAD = 8;

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private final long[] slots;

    Tally(final int n) {
        this.slots = new long[PAD + n + PAD];
    }

    /** Adds {@code n}, atomically: for a count several threads bump at once. */
    void add(final int slot, final long n) {
        SLOTS.getAndAdd(slots, PAD + slot, n);
    }

    /**
     * Adds {@code n} for a count that one thread at a time bumps (under a lock, or owning what it counts): no atomic
     * instruction, and readers see it soon enough for a meter.
     */
    void bump(final int slot, final long n) {
        SLOTS.setOpaque(slots, PAD + slot, (long) SLOTS.getOpaque(slots, PAD + slot) + n);
    }

    long get(final int slot) {
        return (long) SLOTS.getOpaque(slots, PAD + slot);
    }
}
