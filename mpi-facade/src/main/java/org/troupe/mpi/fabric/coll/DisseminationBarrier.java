package org.troupe.mpi.fabric.coll;

/**
 * A barrier by dissemination: in round k each rank tells the rank {@code 2^k} after it and hears from the one
 * {@code 2^k} before it, so that after {@code log2(size)} rounds every rank has heard, through others, from all.
 */
public final class DisseminationBarrier {
    private DisseminationBarrier() {}

    /** Returns once every rank has called it. {@code bytes}: the binding's type of single bytes (messages are empty). */
    public static <T, X extends Exception> void run(final PointToPoint<T, X> p, final T bytes, final int tag) throws X {
        final int rank = p.rank();
        final int size = p.size();
        final byte[] none = new byte[0];
        for (int k = 1; k < size; k <<= 1) {
            final Pending<X> in = p.receive(none, 0, 0, bytes, (rank - k + size) % size, tag);
            p.send(none, 0, 0, bytes, (rank + k) % size, tag).await();
            in.await();
        }
    }
}
