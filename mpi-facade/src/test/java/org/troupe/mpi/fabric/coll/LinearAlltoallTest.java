package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link LinearAlltoall} over ranks in memory: rank i sends rank j {@code count + (i + j) % 3} items, its block for
 * j, at displacements with gaps on both sides.
 */
@Timeout(120)
class LinearAlltoallTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void everyRankEndsWithTheBlockEachRankHadForIt(final int size) throws InterruptedException {
        MemoryRanks.run(size, p -> {
            final int i = p.rank();
            for (final int count : Values.COUNTS) {
                final Layout layout = Layout.of(size, count, i); // both ways, block j is of count + (i + j) % 3
                final int[] send = layout.filled(j -> i * 100 + j);
                final int[] recv = layout.unwritten();
                LinearAlltoall.run(
                        p,
                        send,
                        Values.PAD,
                        layout.counts(),
                        layout.displs(),
                        Layout.TYPE,
                        recv,
                        Values.PAD,
                        layout.counts(),
                        layout.displs(),
                        Layout.TYPE,
                        p.tag(Tags.ALLTOALL));
                assertArrayEquals(layout.filled(j -> j * 100 + i), recv, count + " items");
            }
        });
    }
}
