package org.troupe.mpi.fabric.coll;

/**
 * A large all-reduction with a commuting operation, as a ring: each rank sends its right neighbour one block in
 * {@code size} at each step, first to combine them (a reduce-scatter: after {@code size - 1} steps each rank holds one
 * block combined over all ranks), then to pass the combined blocks round (an allgather). Each rank sends and combines
 * about twice its buffer whatever the size, where {@link RecursiveDoublingAllreduce} sends and combines the whole of
 * it {@code log2(size)} times; every block is combined on one rank only, so all end with the same bits.
 */
public final class RingAllreduce {
    private RingAllreduce() {}

    /**
     * Whether an all-reduction of {@code count} items ({@code bytes} in all) on {@code size} ranks is better done so:
     * an operation that commutes, more than one rank, a block for each, and at least {@link Blocks#RING_BYTES}.
     */
    public static boolean suits(final int size, final int count, final boolean commutes, final long bytes) {
        return commutes && size > 1 && count >= size && bytes >= Blocks.RING_BYTES;
    }

    /**
     * Combines every rank's {@code count} items of {@code sendbuf} with {@code op} into every rank's
     * {@code recvbuf}; {@code scratch} takes the blocks the left neighbour sends.
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
        final int e = p.elements(type);
        System.arraycopy(sendbuf, sendoffset, recvbuf, recvoffset, count * e);
        final int[] start = Blocks.starts(count, size);
        final Object partial = scratch.of(p.kind(type), (count / size + 1) * e);
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        for (int step = 0; step < 2 * (size - 1); step++) {
            final boolean combining = step < size - 1;
            final int out = Math.floorMod(combining ? rank - step : rank + 1 - step + size - 1, size);
            final int in = Math.floorMod(out - 1, size);
            final int inCount = start[in + 1] - start[in];
            final Pending<X> received = combining
                    ? p.receive(partial, 0, inCount, type, left, tag)
                    : p.receive(recvbuf, recvoffset + start[in] * e, inCount, type, left, tag);
            p.send(recvbuf, recvoffset + start[out] * e, start[out + 1] - start[out], type, right, tag)
                    .await();
            received.await();
            if (combining) {
                op.apply(partial, 0, recvbuf, recvoffset + start[in] * e, inCount);
            }
        }
    }
}
