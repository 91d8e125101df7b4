package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link LinearAllgather} over ranks in memory: blocks of other sizes per rank, at displacements with gaps. */
@Timeout(120)
class LinearAllgatherTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void everyRankEndsWithEveryRanksBlockInItsPlace(final int size) throws InterruptedException {
        MemoryRanks.run(size, p -> {
            for (final int count : Values.COUNTS) {
                final Layout layout = Layout.of(size, count, 0);
                final int[] send = layout.block(p.rank(), p.rank());
                final int[] recv = layout.unwritten();
                LinearAllgather.run(
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
                        p.tag(Tags.ALLGATHER));
                assertArrayEquals(layout.filled(r -> r), recv, count + " items");
            }
        });
    }
}
