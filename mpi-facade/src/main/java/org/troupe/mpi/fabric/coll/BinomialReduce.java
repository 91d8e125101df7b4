package org.troupe.mpi.fabric.coll;

import org.troupe.mpi.fabric.Kind;

/**
 * A reduction with a commuting operation up a binomial tree rooted at the root: a rank combines what each of its
 * children sends into its own values, then sends the result to its parent; the root has the whole after
 * {@code log2(size)} steps.
 */
public final class BinomialReduce {
    private BinomialReduce() {}

    /**
     * Combines every rank's {@code count} items of {@code sendbuf} with {@code op} (which commutes) into
     * {@code root}'s {@code recvbuf}; {@code scratch} takes what children send.
     */
    public static <T, X extends Exception> void run(
            final PointToPoint<T, X> p,
            final Scratch scratch,
            final Object sendbuf,
            final int sendoffset,
            final Object recvbuf,
            final int recvoffset,
            final int count,
            final T type,
            final Operator<X> op,
            final int root,
            final int tag)
            throws X {
        final int size = p.size();
        final int n = count * p.elements(type);
        final Kind kind = p.kind(type);
        final Object acc = kind.copyOf(sendbuf, sendoffset, n);
        final int v = (p.rank() - root + size) % size;
        final Object partial = scratch.of(kind, n);
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((v & mask) != 0) {
                p.send(acc, 0, count, type, (v - mask + root) % size, tag).await();
                return;
            }
            if (v + mask < size) {
                p.receive(partial, 0, count, type, (v + mask + root) % size, tag)
                        .await();
                op.apply(partial, 0, acc, 0, count);
            }
        }
        System.arraycopy(acc, 0, recvbuf, recvoffset, n);
    }
}
