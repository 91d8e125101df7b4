package org.troupe.mpi.fabric.coll;

import org.troupe.mpi.fabric.Kind;

/** A test's datatype: items of {@code elements} consecutive elements of {@code kind}, nothing between them. */
record Items(Kind kind, int elements) {
    static final Items BYTES = new Items(Kind.BYTE, 1);
    static final Items INTS = new Items(Kind.INT, 1);
    static final Items LONGS = new Items(Kind.LONG, 1);
    static final Items DOUBLES = new Items(Kind.DOUBLE, 1);
    /** Pairs of ints: an item of two elements, so that offsets in items and in elements differ. */
    static final Items INT_PAIRS = new Items(Kind.INT, 2);
}
