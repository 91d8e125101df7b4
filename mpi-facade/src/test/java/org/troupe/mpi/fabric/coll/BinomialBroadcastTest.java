package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link BinomialBroadcast} over ranks in memory: every root, every size of buffer. */
@Timeout(120)
class BinomialBroadcastTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void everyRankEndsWithTheRootsBuffer(final int size) throws InterruptedException {
        MemoryRanks.run(size, p -> {
            for (int root = 0; root < size; root++) {
                for (final int count : Values.COUNTS) {
                    final int[] buf = p.rank() == root ? Values.ints(root, count) : Values.unwritten(count);
                    BinomialBroadcast.run(p, buf, Values.PAD, count, Items.INTS, root, p.tag(Tags.BCAST));
                    assertArrayEquals(Values.ints(root, count), buf, "root " + root + ", " + count + " items");
                }
            }
        });
    }
}
