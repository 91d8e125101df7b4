package org.troupe.mpi.fabric.coll;

/** An all-to-all by direct exchange: every rank sends each other its block for it and receives its own, all at once. */
public final class LinearAlltoall {
    private LinearAlltoall() {}

    /**
     * Block {@code j} of each rank's {@code sendbuf} ({@code sendcounts[j]} items at {@code sdispls[j]} items) goes
     * to rank {@code j}, into block {@code i} of its {@code recvbuf} ({@code recvcounts[i]} items at
     * {@code rdispls[i]} items), {@code i} being the sender.
     */
    public static <T, X extends Exception> void run(
            final PointToPoint<T, X> p,
            final Object sendbuf,
            final int sendoffset,
            final int[] sendcounts,
            final int[] sdispls,
            final T sendtype,
            final Object recvbuf,
            final int recvoffset,
            final int[] recvcounts,
            final int[] rdispls,
            final T recvtype,
            final int tag)
            throws X {
        final int rank = p.rank();
        final int size = p.size();
        final Pending<X>[] all = Pending.slots(2 * size); // the receives, then the sends
        for (int r = 0; r < size; r++) {
            final int from = sendoffset + sdispls[r] * p.extent(sendtype);
            final int to = recvoffset + rdispls[r] * p.extent(recvtype);
            if (r == rank) {
                p.copy(sendbuf, from, sendcounts[r], sendtype, recvbuf, to, recvcounts[r], recvtype);
            } else {
                all[r] = p.receive(recvbuf, to, recvcounts[r], recvtype, r, tag);
                all[size + r] = p.send(sendbuf, from, sendcounts[r], sendtype, r, tag);
            }
        }
        Pending.awaitAll(all);
    }
}
