package org.troupe.mpi.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.troupe.mpi.fabric.Kind;

/** The algorithms' helpers: blocks, tags and the scratch buffer. */
class SmallPartsTest {
    @Test
    void blocksCutACountInNearlyEqualPartsThatCoverIt() {
        assertArrayEquals(new int[] {0, 2, 4, 7}, Blocks.starts(7, 3));
        assertArrayEquals(new int[] {0, 0, 0, 1}, Blocks.starts(1, 3));
        assertArrayEquals(new int[] {0, 2, 5, 5}, Blocks.offsets(new int[] {2, 3, 0}));
        assertArrayEquals(new int[] {4, 4}, Blocks.uniform(2, 4));
        assertArrayEquals(new int[] {0, 4, 8}, Blocks.displacements(3, 4));
    }

    @Test
    void tagsCountTheCollectivesAndCarryTheirKind() {
        final Tags tags = new Tags();
        assertEquals(Tags.BCAST, tags.next(Tags.BCAST));
        assertEquals(1 << 4 | Tags.REDUCE, tags.next(Tags.REDUCE));
        assertEquals(2 << 4 | Tags.BARRIER, tags.next(Tags.BARRIER));
    }

    @Test
    void scratchIsKeptWhileLargeEnoughAndOfTheKind() {
        final Scratch scratch = new Scratch();
        final Object first = scratch.of(Kind.INT, 10);
        assertSame(first, scratch.of(Kind.INT, 5));
        assertNotSame(first, scratch.of(Kind.INT, 11));
        assertEquals(long[].class, scratch.of(Kind.LONG, 1).getClass());
    }
}
