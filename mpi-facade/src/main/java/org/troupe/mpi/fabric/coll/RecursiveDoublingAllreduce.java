package org.troupe.mpi.fabric.coll;

/**
 * An all-reduction by recursive doubling, for a commuting operation on a power-of-two number of ranks:
 * {@code log2(size)} exchanges with the partners {@code rank ^ 1, rank ^ 2, ...}, each rank combining what it gets.
 * Every rank computes its partner's combination the other way round, which a commuting operation makes the same
 * value: all ranks end with identical results.
 */
public final class RecursiveDoublingAllreduce {
    private RecursiveDoublingAllreduce() {}

    /** Whether it applies: an operation that commutes, on a power-of-two number of ranks. */
    public static boolean suits(final int size, final boolean commutes) {
        return commutes && Integer.bitCount(size) == 1;
    }

    /**
     * Combines every rank's {@code count} items of {@code sendbuf} with {@code op} into every rank's
     * {@code recvbuf}; {@code scratch} takes what partners send.
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
            final int tag)
            throws X {
        final int size = p.size();
        final int rank = p.rank();
        final int n = count * p.elements(type);
        System.arraycopy(sendbuf, sendoffset, recvbuf, recvoffset, n);
        final Object partial = size > 1 ? scratch.of(p.kind(type), n) : null;
        for (int mask = 1; mask < size; mask <<= 1) {
            final int partner = rank ^ mask;
            final Pending<X> in = p.receive(partial, 0, count, type, partner, tag);
            p.send(recvbuf, recvoffset, count, type, partner, tag).await();
            in.await();
            op.apply(partial, 0, recvbuf, recvoffset, count);
        }
    }
}
