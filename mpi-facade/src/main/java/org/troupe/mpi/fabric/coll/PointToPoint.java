package org.troupe.mpi.fabric.coll;

import org.troupe.mpi.fabric.Kind;

/**
 * What a collective algorithm needs of its communicator: sends and receives between its ranks, on a context the
 * program's own messages never match, and the shape of the binding's datatypes. {@code T} is the binding's datatype
 * and {@code X} what its operations throw: an algorithm passes the binding's failures on unchanged.
 *
 * <p>Buffers are Java arrays of one primitive type (of {@link #kind}); offsets are in elements, counts in items.
 */
public interface PointToPoint<T, X extends Exception> {
    /** This rank in the communicator, from 0 to {@link #size} - 1. */
    int rank();

    /** Ranks in the communicator. */
    int size();

    /** Starts a standard send of {@code count} items of {@code type} from {@code buf} at {@code offset}. */
    Pending<X> send(Object buf, int offset, int count, T type, int dest, int tag) throws X;

    /** Posts a receive of at most {@code count} items of {@code type} into {@code buf} at {@code offset}. */
    Pending<X> receive(Object buf, int offset, int count, T type, int source, int tag) throws X;

    /**
     * A rank's own block of a gather or scatter: {@code count} items of {@code type} copied into room for
     * {@code capacity} items of {@code toType}, with the checks a message would get.
     */
    void copy(Object from, int fromOffset, int count, T type, Object to, int toOffset, int capacity, T toType) throws X;

    /** The element kind of a buffer of {@code type}. */
    Kind kind(T type);

    /** Elements of data in one item of {@code type}. */
    int elements(T type);

    /** Elements of buffer one item of {@code type} spans: displacements counted in items are this far apart. */
    int extent(T type);
}
