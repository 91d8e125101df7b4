package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link DisseminationBarrier} over ranks in memory. */
@Timeout(120)
class DisseminationBarrierTest {
    private static final int ROUNDS = 20;

    /**
     * In each round the last rank enters only once all the others are in the barrier, and then none may have left
     * it; and no rank leaves before all have entered.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void noRankLeavesBeforeEveryRankHasEntered(final int size) throws InterruptedException {
        final AtomicInteger[] entered = new AtomicInteger[ROUNDS];
        final AtomicInteger[] left = new AtomicInteger[ROUNDS];
        for (int k = 0; k < ROUNDS; k++) {
            entered[k] = new AtomicInteger();
            left[k] = new AtomicInteger();
        }
        MemoryRanks.run(size, p -> {
            for (int k = 0; k < ROUNDS; k++) {
                if (p.rank() == size - 1) {
                    while (entered[k].get() < size - 1) {
                        Thread.onSpinWait();
                    }
                    assertEquals(0, left[k].get(), "ranks that left round " + k + " before the last entered");
                }
                entered[k].incrementAndGet();
                DisseminationBarrier.run(p, Items.BYTES, p.tag(Tags.BARRIER));
                assertEquals(size, entered[k].get(), "ranks entered when rank " + p.rank() + " left round " + k);
                left[k].incrementAndGet();
            }
        });
    }
}
