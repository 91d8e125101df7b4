package org.troupe.mpi.fabric.coll;

/**
 * A broadcast down a binomial tree rooted at the root: a rank {@code v} places after the root receives from the rank
 * that clears {@code v}'s lowest bit, then sends to {@code v + 2^j} for the bits below it, highest first; every rank
 * has the buffer after {@code log2(size)} steps.
 */
public final class BinomialBroadcast {
    private BinomialBroadcast() {}

    /** Copies {@code root}'s {@code count} items of {@code type} into every rank's {@code buf}. */
    public static <T, X extends Exception> void run(
            final PointToPoint<T, X> p,
            final Object buf,
            final int offset,
            final int count,
            final T type,
            final int root,
            final int tag)
            throws X {
        final int size = p.size();
        final int v = (p.rank() - root + size) % size;
        int mask = 1;
        while (mask < size) {
            if ((v & mask) != 0) {
                p.receive(buf, offset, count, type, (v - mask + root) % size, tag)
                        .await();
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while (mask > 0) {
            if (v + mask < size) {
                p.send(buf, offset, count, type, (v + mask + root) % size, tag).await();
            }
            mask >>= 1;
        }
    }
}
