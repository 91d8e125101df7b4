package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link RecursiveDoublingAllreduce} over ranks in memory: on the powers of two it applies to. */
@Timeout(120)
class RecursiveDoublingAllreduceTest {
    private static final Allreduces.Algorithm DOUBLING = (p, send, recv, count, type, op, tag) ->
            RecursiveDoublingAllreduce.run(p, p.scratch, send, Values.PAD, recv, Values.PAD, count, type, op, tag);

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4, 8})
    void everyRankEndsWithTheSum(final int size) throws InterruptedException {
        Allreduces.everyRankEndsWithTheSum(size, DOUBLING);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void everyRankEndsWithTheSameBits(final int size) throws InterruptedException {
        Allreduces.everyRankEndsWithTheSameBits(
                size,
                (p, send, recv, count, type, op, tag) ->
                        RecursiveDoublingAllreduce.run(p, p.scratch, send, 0, recv, 0, count, type, op, tag));
    }

    @Test
    void suitsOnlyPowersOfTwoWithACommutingOperation() {
        for (int size = 1; size <= Values.MAX_RANKS; size++) {
            assertEquals(Integer.bitCount(size) == 1, RecursiveDoublingAllreduce.suits(size, true), size + " ranks");
            assertFalse(RecursiveDoublingAllreduce.suits(size, false), size + " ranks, not commuting");
        }
    }
}
