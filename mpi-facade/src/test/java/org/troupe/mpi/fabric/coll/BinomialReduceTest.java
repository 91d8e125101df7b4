package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link BinomialReduce} over ranks in memory, with a commuting sum: every root, every size of buffer. */
@Timeout(120)
class BinomialReduceTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void theRootEndsWithTheSumAndNoOtherBufferIsWritten(final int size) throws InterruptedException {
        MemoryRanks.run(size, p -> {
            for (int root = 0; root < size; root++) {
                for (final int count : Values.COUNTS) {
                    final long[] send = Values.longs(p.rank(), count);
                    final long[] recv = Values.unwrittenLongs(count);
                    BinomialReduce.run(
                            p,
                            p.scratch,
                            send,
                            Values.PAD,
                            recv,
                            Values.PAD,
                            count,
                            Items.LONGS,
                            Values.LONG_SUM,
                            root,
                            p.tag(Tags.REDUCE));
                    final String what = "root " + root + ", " + count + " items";
                    assertArrayEquals(
                            p.rank() == root ? Values.sumOfLongs(size, count) : Values.unwrittenLongs(count),
                            recv,
                            what);
                    assertArrayEquals(Values.longs(p.rank(), count), send, "the send buffer, " + what);
                }
            }
        });
    }
}
