package org.troupe.mpi.fabric.coll;

/** A gather straight to the root: every rank sends it its block, which it receives all at once. */
public final class LinearGather {
    private LinearGather() {}

    /**
     * Every rank's {@code sendcount} items into {@code root}'s {@code recvbuf}: rank {@code r}'s
     * {@code recvcounts[r]} items at {@code displs[r]} items from {@code recvoffset}. The counts and displacements
     * are read at the root only.
     */
    public static <T, X extends Exception> void run(
            final PointToPoint<T, X> p,
            final Object sendbuf,
            final int sendoffset,
            final int sendcount,
            final T sendtype,
            final Object recvbuf,
            final int recvoffset,
            final int[] recvcounts,
            final int[] displs,
            final T recvtype,
            final int root,
            final int tag)
            throws X {
        final int rank = p.rank();
        if (rank != root) {
            p.send(sendbuf, sendoffset, sendcount, sendtype, root, tag).await();
            return;
        }
        final int size = p.size();
        final Pending<X>[] in = Pending.slots(size);
        for (int r = 0; r < size; r++) {
            final int at = recvoffset + displs[r] * p.extent(recvtype);
            if (r == rank) {
                p.copy(sendbuf, sendoffset, sendcount, sendtype, recvbuf, at, recvcounts[r], recvtype);
            } else {
                in[r] = p.receive(recvbuf, at, recvcounts[r], recvtype, r, tag);
            }
        }
        Pending.awaitAll(in);
    }
}
