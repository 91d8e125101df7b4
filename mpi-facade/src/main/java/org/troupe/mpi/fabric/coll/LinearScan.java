package org.troupe.mpi.fabric.coll;

import org.troupe.mpi.fabric.Kind;

/**
 * An inclusive prefix reduction down a chain: each rank waits for the prefix of the ranks before it, combines its
 * own values into it and passes it on, so the ranks combine in rank order whether or not the operation commutes.
 */
public final class LinearScan {
    private LinearScan() {}

    /** Rank {@code i}'s {@code recvbuf} gets {@code x0 op x1 op ... op xi}, of {@code count} items each. */
    public static <T, X extends Exception> void run(
            final PointToPoint<T, X> p,
            final Object sendbuf,
            final int sendoffset,
            final Object recvbuf,
            final int recvoffset,
            final int count,
            final T type,
            final Operator<X> op,
            final int tag)
            throws X {
        final int rank = p.rank();
        final int n = count * p.elements(type);
        final Kind kind = p.kind(type);
        final Object result = kind.copyOf(sendbuf, sendoffset, n);
        if (rank > 0) {
            final Object before = kind.newArray(n);
            p.receive(before, 0, count, type, rank - 1, tag).await();
            op.apply(before, 0, result, 0, count);
        }
        if (rank + 1 < p.size()) {
            p.send(result, 0, count, type, rank + 1, tag).await();
        }
        System.arraycopy(result, 0, recvbuf, recvoffset, n);
    }
}
