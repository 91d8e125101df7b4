package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link LinearScan} over ranks in memory, with an operation that does not commute. */
@Timeout(120)
class LinearScanTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void rankIEndsWithRanksZeroToICombinedInOrder(final int size) throws InterruptedException {
        MemoryRanks.run(size, p -> {
            for (final int count : Values.COUNTS) {
                final int[] send = Values.ints(p.rank(), 2 * count);
                final int[] recv = Values.unwritten(2 * count);
                LinearScan.run(
                        p,
                        send,
                        Values.PAD,
                        recv,
                        Values.PAD,
                        count,
                        Items.INT_PAIRS,
                        Values.COMPOSE,
                        p.tag(Tags.SCAN));
                assertArrayEquals(Values.composed(p.rank(), count), recv, count + " items");
                assertArrayEquals(Values.ints(p.rank(), 2 * count), send, "the send buffer, " + count + " items");
            }
        });
    }
}
