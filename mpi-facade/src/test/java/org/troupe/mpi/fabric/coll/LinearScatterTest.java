package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link LinearScatter} over ranks in memory: blocks of other sizes per rank, at displacements with gaps. */
@Timeout(120)
class LinearScatterTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void everyRankEndsWithItsBlockOfTheRootsBuffer(final int size) throws InterruptedException {
        MemoryRanks.run(size, p -> {
            for (int root = 0; root < size; root++) {
                for (final int count : Values.COUNTS) {
                    final Layout layout = Layout.of(size, count, root);
                    final int seed = root * 100;
                    final int[] send = p.rank() == root ? layout.filled(r -> seed + r) : layout.unwritten();
                    final int[] recv = Values.unwritten(layout.counts()[p.rank()] * Layout.TYPE.elements());
                    LinearScatter.run(
                            p,
                            send,
                            Values.PAD,
                            layout.counts(),
                            layout.displs(),
                            Layout.TYPE,
                            recv,
                            Values.PAD,
                            layout.counts()[p.rank()],
                            Layout.TYPE,
                            root,
                            p.tag(Tags.SCATTER));
                    assertArrayEquals(
                            layout.block(p.rank(), seed + p.rank()), recv, "root " + root + ", " + count + " items");
                }
            }
        });
    }
}
