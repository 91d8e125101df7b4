package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link LinearGather} over ranks in memory: blocks of other sizes per rank, at displacements with gaps. */
@Timeout(120)
class LinearGatherTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void theRootEndsWithEveryRanksBlockInItsPlace(final int size) throws InterruptedException {
        MemoryRanks.run(size, p -> {
            for (int root = 0; root < size; root++) {
                for (final int count : Values.COUNTS) {
                    final Layout layout = Layout.of(size, count, root);
                    final int[] send = layout.block(p.rank(), p.rank());
                    final int[] recv = layout.unwritten();
                    LinearGather.run(
                            p,
                            send,
                            Values.PAD,
                            layout.counts()[p.rank()],
                            Layout.TYPE,
                            recv,
                            Values.PAD,
                            layout.counts(),
                            layout.displs(),
                            Layout.TYPE,
                            root,
                            p.tag(Tags.GATHER));
                    assertArrayEquals(
                            p.rank() == root ? layout.filled(r -> r) : layout.unwritten(),
                            recv,
                            "root " + root + ", " + count + " items");
                }
            }
        });
    }
}
