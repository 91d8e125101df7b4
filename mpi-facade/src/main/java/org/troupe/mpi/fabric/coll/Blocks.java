package org.troupe.mpi.fabric.coll;

import java.util.Arrays;

/** How the algorithms cut buffers into blocks: one per rank. */
public final class Blocks {
    /** From this many bytes on, a commuting Allreduce and a Bcast to more than two ranks run as rings. */
    static final long RING_BYTES = 64 * 1024;

    private Blocks() {}

    /** {@code count} items cut in {@code size} blocks of about one length: block b is items start[b] to start[b+1]. */
    static int[] starts(final int count, final int size) {
        final int[] start = new int[size + 1];
        for (int b = 0; b <= size; b++) {
            start[b] = (int) ((long) count * b / size);
        }
        return start;
    }

    /** {@code count} for each of {@code size} ranks: the counts of a gather or scatter of equal blocks. */
    public static int[] uniform(final int size, final int count) {
        final int[] counts = new int[size];
        Arrays.fill(counts, count);
        return counts;
    }

    /** Where rank i's block of {@code count} items starts, in items: {@code i * count}. */
    public static int[] displacements(final int size, final int count) {
        final int[] displs = new int[size];
        for (int i = 0; i < displs.length; i++) {
            displs[i] = i * count;
        }
        return displs;
    }

    /**
     * Where each block of {@code counts} starts when they follow each other, in items, and after them where the
     * last ends (their total).
     */
    public static int[] offsets(final int[] counts) {
        final int[] at = new int[counts.length + 1];
        for (int i = 0; i < counts.length; i++) {
            at[i + 1] = at[i] + counts[i];
        }
        return at;
    }
}
