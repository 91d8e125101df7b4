package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link ScatterRingBroadcast} over ranks in memory: every root, buffers of items of one and two elements. */
@Timeout(120)
class ScatterRingBroadcastTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void everyRankEndsWithTheRootsBuffer(final int size) throws InterruptedException {
        MemoryRanks.run(size, p -> {
            for (int root = 0; root < size; root++) {
                for (final Items type : new Items[] {Items.INTS, Items.INT_PAIRS}) {
                    for (final int count : Values.COUNTS) {
                        final int n = count * type.elements();
                        final int[] buf = p.rank() == root ? Values.ints(root, n) : Values.unwritten(n);
                        ScatterRingBroadcast.run(p, buf, Values.PAD, count, type, root, p.tag(Tags.BCAST));
                        assertArrayEquals(Values.ints(root, n), buf, "root " + root + ", " + count + " " + type);
                    }
                }
            }
        });
    }

    @Test
    void suitsLargeContiguousBuffersForMoreThanTwoRanksWithABlockEach() {
        final long ring = Blocks.RING_BYTES;
        assertTrue(ScatterRingBroadcast.suits(3, 3, true, ring));
        assertFalse(ScatterRingBroadcast.suits(3, 3, true, ring - 1), "below the threshold");
        assertFalse(ScatterRingBroadcast.suits(2, 100_000, true, 10 * ring), "two ranks");
        assertFalse(ScatterRingBroadcast.suits(9, 8, true, 10 * ring), "fewer items than ranks");
        assertFalse(ScatterRingBroadcast.suits(9, 100_000, false, 10 * ring), "items with gaps");
    }
}
