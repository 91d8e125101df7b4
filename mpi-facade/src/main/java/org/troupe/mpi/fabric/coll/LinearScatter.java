package org.troupe.mpi.fabric.coll;

/** A scatter straight from the root: it sends every rank its block at once. */
public final class LinearScatter {
    private LinearScatter() {}

    /**
     * {@code root}'s {@code sendbuf} to every rank's {@code recvbuf}: rank {@code r} gets the {@code sendcounts[r]}
     * items at {@code displs[r]} items from {@code sendoffset}. The counts and displacements are read at the root only.
     */
    public static <T, X extends Exception> void run(
            final PointToPoint<T, X> p,
            final Object sendbuf,
            final int sendoffset,
            final int[] sendcounts,
            final int[] displs,
            final T sendtype,
            final Object recvbuf,
            final int recvoffset,
            final int recvcount,
            final T recvtype,
            final int root,
            final int tag)
            throws X {
        final int rank = p.rank();
        if (rank != root) {
            p.receive(recvbuf, recvoffset, recvcount, recvtype, root, tag).await();
            return;
        }
        final int size = p.size();
        final Pending<X>[] out = Pending.slots(size);
        for (int r = 0; r < size; r++) {
            final int at = sendoffset + displs[r] * p.extent(sendtype);
            if (r == rank) {
                p.copy(sendbuf, at, sendcounts[r], sendtype, recvbuf, recvoffset, recvcount, recvtype);
            } else {
                out[r] = p.send(sendbuf, at, sendcounts[r], sendtype, r, tag);
            }
        }
        Pending.awaitAll(out);
    }
}
