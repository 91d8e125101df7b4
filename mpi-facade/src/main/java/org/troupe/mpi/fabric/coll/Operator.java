package org.troupe.mpi.fabric.coll;

/**
 * A reduction's operation on the items of one datatype, as MPI defines it: {@code inout = in op inout}, so that
 * combining the ranks' values from the last down computes {@code x0 op x1 op ...} even when it does not commute.
 */
public interface Operator<X extends Exception> {
    /** Whether {@code a op b == b op a}: only then may an algorithm combine in another order than the ranks'. */
    boolean commutes();

    /** {@code inout = in op inout} over {@code count} items. */
    void apply(Object in, int inOffset, Object inout, int inoutOffset, int count) throws X;
}
