package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.concurrent.atomic.AtomicReferenceArray;

/** The checks every all-reduction algorithm passes, whatever its messages. */
final class Allreduces {
    /** An all-reduction as the algorithm under test runs it, on one rank. */
    @FunctionalInterface
    interface Algorithm {
        void run(
                MemoryRanks p,
                Object sendbuf,
                Object recvbuf,
                int count,
                Items type,
                Operator<RuntimeException> op,
                int tag);
    }

    private Allreduces() {}

    /** Every rank ends with the sum of all ranks' longs, for every size of buffer; the send buffers stay as they were. */
    static void everyRankEndsWithTheSum(final int size, final Algorithm algorithm) throws InterruptedException {
        MemoryRanks.run(size, p -> {
            for (final int count : Values.COUNTS) {
                final long[] send = Values.longs(p.rank(), count);
                final long[] recv = Values.unwrittenLongs(count);
                algorithm.run(p, send, recv, count, Items.LONGS, Values.LONG_SUM, p.tag(Tags.REDUCE));
                assertArrayEquals(Values.sumOfLongs(size, count), recv, count + " items");
                assertArrayEquals(Values.longs(p.rank(), count), send, "the send buffer, " + count + " items");
            }
        });
    }

    /**
     * Sums of doubles, whose rounding depends on the order of the terms: every rank ends with the same bits, and
     * near the sum.
     */
    static void everyRankEndsWithTheSameBits(final int size, final Algorithm algorithm) throws InterruptedException {
        final int count = 20_000;
        final double[][] values = new double[size][count];
        final Random random = new Random(size);
        final double[] sum = new double[count];
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < count; i++) {
                values[r][i] = random.nextDouble() * Math.pow(10, random.nextInt(12));
                sum[i] += values[r][i];
            }
        }
        final AtomicReferenceArray<double[]> results = new AtomicReferenceArray<>(size);
        MemoryRanks.run(size, p -> {
            final double[] recv = new double[count];
            algorithm.run(
                    p, values[p.rank()].clone(), recv, count, Items.DOUBLES, Values.DOUBLE_SUM, p.tag(Tags.REDUCE));
            results.set(p.rank(), recv);
        });
        for (int r = 0; r < size; r++) {
            assertArrayEquals(results.get(0), results.get(r), "rank " + r + " and rank 0");
        }
        for (int i = 0; i < count; i++) {
            assertEquals(sum[i], results.get(0)[i], Math.abs(sum[i]) * 1e-12, "element " + i);
        }
    }
}
