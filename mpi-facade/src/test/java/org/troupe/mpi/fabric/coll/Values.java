package org.troupe.mpi.fabric.coll;

import java.util.Arrays;

/**
 * The tests' buffers and the references they are checked against. A buffer holds its data from {@link #PAD}
 * elements on, between pads of {@link #SENTINEL} that no algorithm may write; each rank's values are its own.
 */
final class Values {
    /** Elements before and after a buffer's data. */
    static final int PAD = 3;

    static final int SENTINEL = -77;
    /**
     * Item counts: none, one, odd ones, and 20,000 (80 KB of ints), past {@link Blocks#RING_BYTES}, above which the
     * binding chooses the rings and large messages go by rendezvous between JVMs.
     */
    static final int[] COUNTS = {0, 1, 7, 1000, 20_000};
    /** Ranks of a job: 1 to 9, odd and even, powers of two and not. */
    static final int MAX_RANKS = 9;

    private Values() {}

    /** Element {@code i} of the values of {@code seed} (a rank, or a rank and a block): distinct for each. */
    static int value(final int seed, final int i) {
        return seed * 1_000_003 + i * 7 + 1;
    }

    /** {@code n} elements of {@code seed}'s values between pads. */
    static int[] ints(final int seed, final int n) {
        final int[] a = unwritten(n);
        for (int i = 0; i < n; i++) {
            a[PAD + i] = value(seed, i);
        }
        return a;
    }

    /** Room for {@code n} elements, all {@link #SENTINEL}: what an algorithm does not write stays so. */
    static int[] unwritten(final int n) {
        final int[] a = new int[n + 2 * PAD];
        Arrays.fill(a, SENTINEL);
        return a;
    }

    static long[] longs(final int seed, final int n) {
        final long[] a = new long[n + 2 * PAD];
        Arrays.fill(a, SENTINEL);
        for (int i = 0; i < n; i++) {
            a[PAD + i] = (long) value(seed, i) << 20;
        }
        return a;
    }

    static long[] unwrittenLongs(final int n) {
        final long[] a = new long[n + 2 * PAD];
        Arrays.fill(a, SENTINEL);
        return a;
    }

    /** Sums of the longs of ranks 0 to {@code size - 1}, element by element, between pads. */
    static long[] sumOfLongs(final int size, final int n) {
        final long[] sum = unwrittenLongs(n);
        for (int r = 0; r < size; r++) {
            final long[] mine = longs(r, n);
            for (int i = 0; i < n; i++) {
                sum[PAD + i] = (r == 0 ? 0 : sum[PAD + i]) + mine[PAD + i];
            }
        }
        return sum;
    }

    /** Addition of longs: an operation that commutes. */
    static final Operator<RuntimeException> LONG_SUM = new Operator<>() {
        @Override
        public boolean commutes() {
            return true;
        }

        @Override
        public void apply(
                final Object in, final int inOffset, final Object inout, final int inoutOffset, final int count) {
            for (int i = 0; i < count; i++) {
                ((long[]) inout)[inoutOffset + i] += ((long[]) in)[inOffset + i];
            }
        }
    };

    /** Addition of doubles: commutes, but its rounding depends on the order of the terms. */
    static final Operator<RuntimeException> DOUBLE_SUM = new Operator<>() {
        @Override
        public boolean commutes() {
            return true;
        }

        @Override
        public void apply(
                final Object in, final int inOffset, final Object inout, final int inoutOffset, final int count) {
            for (int i = 0; i < count; i++) {
                ((double[]) inout)[inoutOffset + i] += ((double[]) in)[inOffset + i];
            }
        }
    };

    /**
     * Composition of affine maps {@code x -> a x + b}, each an item of two ints {@code (a, b)}: associative, as MPI
     * requires, but not commuting, so a result shows the order the ranks were combined in. {@code inout = in o
     * inout}: {@code (a1, b1) o (a2, b2) = (a1 a2, a1 b2 + b1)}.
     */
    static final Operator<RuntimeException> COMPOSE = new Operator<>() {
        @Override
        public boolean commutes() {
            return false;
        }

        @Override
        public void apply(
                final Object in, final int inOffset, final Object inout, final int inoutOffset, final int count) {
            final int[] f = (int[]) in;
            final int[] g = (int[]) inout;
            for (int i = 0; i < count; i++) {
                final int a1 = f[inOffset + 2 * i];
                final int b1 = f[inOffset + 2 * i + 1];
                final int a2 = g[inoutOffset + 2 * i];
                final int b2 = g[inoutOffset + 2 * i + 1];
                g[inoutOffset + 2 * i] = a1 * a2;
                g[inoutOffset + 2 * i + 1] = a1 * b2 + b1;
            }
        }
    };

    /** The composition {@code x0 o x1 o ... o x(last)} of the pairs of ranks 0 to {@code last}, between pads. */
    static int[] composed(final int last, final int count) {
        final int[] result = ints(0, 2 * count);
        for (int r = 1; r <= last; r++) {
            final int[] next = ints(r, 2 * count);
            // result = result o next: compose next into a copy of result's maps, applied after them
            final int[] after = next.clone();
            COMPOSE.apply(result, PAD, after, PAD, count);
            System.arraycopy(after, PAD, result, PAD, 2 * count);
        }
        return result;
    }
}
