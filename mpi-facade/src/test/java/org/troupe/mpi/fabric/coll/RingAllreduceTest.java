package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link RingAllreduce} over ranks in memory. */
@Timeout(120)
class RingAllreduceTest {
    private static final Allreduces.Algorithm RING = (p, send, recv, count, type, op, tag) ->
            RingAllreduce.run(p, p.scratch, send, Values.PAD, recv, Values.PAD, count, type, op, tag);

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void everyRankEndsWithTheSum(final int size) throws InterruptedException {
        Allreduces.everyRankEndsWithTheSum(size, RING);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 5, 8, 9})
    void everyRankEndsWithTheSameBits(final int size) throws InterruptedException {
        Allreduces.everyRankEndsWithTheSameBits(
                size,
                (p, send, recv, count, type, op, tag) ->
                        RingAllreduce.run(p, p.scratch, send, 0, recv, 0, count, type, op, tag));
    }

    @Test
    void suitsLargeBuffersWithACommutingOperationAndABlockPerRank() {
        final long ring = Blocks.RING_BYTES;
        assertTrue(RingAllreduce.suits(2, 2, true, ring));
        assertFalse(RingAllreduce.suits(2, 2, true, ring - 1), "below the threshold");
        assertFalse(RingAllreduce.suits(4, 100_000, false, 10 * ring), "an operation that does not commute");
        assertFalse(RingAllreduce.suits(1, 100_000, true, 10 * ring), "one rank");
        assertFalse(RingAllreduce.suits(9, 8, true, 10 * ring), "fewer items than ranks");
    }
}
