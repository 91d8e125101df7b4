package org.troupe.mpi.fabric.coll;

/** An allgather by direct exchange: every rank sends its block to every other and receives theirs, all at once. */
public final class LinearAllgather {
    private LinearAllgather() {}

    /**
     * Every rank's {@code sendcount} items into every rank's {@code recvbuf}: rank {@code r}'s {@code recvcounts[r]}
     * items at {@code displs[r]} items from {@code recvoffset}.
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
            final int tag)
            throws X {
        final int rank = p.rank();
        final int size = p.size();
        final Pending<X>[] all = Pending.slots(2 * size); // the receives, then the sends
        for (int r = 0; r < size; r++) {
            final int at = recvoffset + displs[r] * p.extent(recvtype);
            if (r == rank) {
                p.copy(sendbuf, sendoffset, sendcount, sendtype, recvbuf, at, recvcounts[r], recvtype);
            } else {
                all[r] = p.receive(recvbuf, at, recvcounts[r], recvtype, r, tag);
                all[size + r] = p.send(sendbuf, sendoffset, sendcount, sendtype, r, tag);
            }
        }
        Pending.awaitAll(all);
    }
}
