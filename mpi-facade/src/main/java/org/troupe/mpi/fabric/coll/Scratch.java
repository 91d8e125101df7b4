package org.troupe.mpi.fabric.coll;

import java.lang.reflect.Array;
import org.troupe.mpi.fabric.Kind;

/**
 * A reduction's buffer for what partners send, kept between calls: a large one is costly to allocate each time.
 * One per communicator: its collectives run one at a time (MPI requires every rank to call them in the same order),
 * so one buffer serves them all.
 */
public final class Scratch {
    private Object buffer;

    /** A buffer of at least {@code n} elements of {@code kind}: the one kept if it is large enough, else a new one. */
    Object of(final Kind kind, final int n) {
        final Object s = buffer;
        if (s != null && s.getClass() == kind.arrayType() && Array.getLength(s) >= n) {
            return s;
        }
        final Object fresh = kind.newArray(n);
        buffer = fresh;
        return fresh;
    }
}
