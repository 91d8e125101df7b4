package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link LinearReduce} over ranks in memory, with an operation that does not commute: every root, every size. */
@Timeout(120)
class LinearReduceTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void theRootEndsWithTheRanksCombinedInRankOrder(final int size) throws InterruptedException {
        MemoryRanks.run(size, p -> {
            for (int root = 0; root < size; root++) {
                for (final int count : Values.COUNTS) {
                    final int[] send = Values.ints(p.rank(), 2 * count);
                    final int[] recv = Values.unwritten(2 * count);
                    LinearReduce.run(
                            p,
                            send,
                            Values.PAD,
                            recv,
                            Values.PAD,
                            count,
                            Items.INT_PAIRS,
                            Values.COMPOSE,
                            root,
                            p.tag(Tags.REDUCE));
                    final String what = "root " + root + ", " + count + " items";
                    assertArrayEquals(
                            p.rank() == root ? Values.composed(size - 1, count) : Values.unwritten(2 * count),
                            recv,
                            what);
                    assertArrayEquals(Values.ints(p.rank(), 2 * count), send, "the send buffer, " + what);
                }
            }
        });
    }
}
