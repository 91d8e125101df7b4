package org.troupe.mpi.fabric.coll;

import java.util.function.IntUnaryOperator;

/**
 * The blocks of a v-collective's buffer, one per rank, of items of two elements (so that displacements in items and
 * offsets in elements differ): rank r's block holds {@code counts[r]} items from item {@code displs[r]}, and a gap
 * of r items precedes it, so that blocks neither touch nor come at the places equal blocks would.
 */
record Layout(int[] counts, int[] displs, int items) {
    static final Items TYPE = Items.INT_PAIRS;

    /** Blocks of {@code count + (shift + r) % 3} items for rank r. */
    static Layout of(final int size, final int count, final int shift) {
        final int[] counts = new int[size];
        final int[] displs = new int[size];
        int at = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = count + (shift + r) % 3;
            at += r;
            displs[r] = at;
            at += counts[r];
        }
        return new Layout(counts, displs, at);
    }

    /** A buffer of this layout from {@link Values#PAD}: block r holds the values of {@code seed(r)}, the rest none. */
    int[] filled(final IntUnaryOperator seed) {
        final int[] buf = Values.unwritten(items * TYPE.elements());
        for (int r = 0; r < counts.length; r++) {
            final int[] block = Values.ints(seed.applyAsInt(r), counts[r] * TYPE.elements());
            System.arraycopy(
                    block, Values.PAD, buf, Values.PAD + displs[r] * TYPE.elements(), counts[r] * TYPE.elements());
        }
        return buf;
    }

    /** Rank r's block alone, between pads. */
    int[] block(final int r, final int seed) {
        return Values.ints(seed, counts[r] * TYPE.elements());
    }

    /** A buffer of this layout's size that nothing has written. */
    int[] unwritten() {
        return Values.unwritten(items * TYPE.elements());
    }
}
