package org.troupe.mpi.fabric.coll;

/**
 * A broadcast of a large buffer: its blocks scattered down the binomial tree (block {@code j} to the rank {@code j}
 * places after the root, each rank getting its subtree's blocks at once), then every block passed round the ring of
 * ranks. The root sends the buffer about once, where {@link BinomialBroadcast} sends it {@code log2(size)} times.
 */
public final class ScatterRingBroadcast {
    private ScatterRingBroadcast() {}

    /**
     * Whether a broadcast of {@code count} items ({@code bytes} in all) to {@code size} ranks is better done so: more
     * than two ranks, a block for each, items that are their elements in a row, and at least
     * {@link Blocks#RING_BYTES}.
     */
    public static boolean suits(final int size, final int count, final boolean contiguous, final long bytes) {
        return size > 2 && count >= size && contiguous && bytes >= Blocks.RING_BYTES;
    }

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
        final int rank = p.rank();
        final int v = (rank - root + size) % size;
        final int e = p.elements(type);
        final int[] start = Blocks.starts(count, size);
        int mask = 1;
        while (mask < size) { // a rank's subtree is the v..v+mask-1 of its lowest bit: its parent sends it those
            if ((v & mask) != 0) {
                final int end = Math.min(v + mask, size);
                p.receive(buf, offset + start[v] * e, start[end] - start[v], type, (v - mask + root) % size, tag)
                        .await();
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (v + mask < size) {
                final int end = Math.min(v + 2 * mask, size);
                p.send(
                                buf,
                                offset + start[v + mask] * e,
                                start[end] - start[v + mask],
                                type,
                                (v + mask + root) % size,
                                tag)
                        .await();
            }
        }
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        for (int step = 0; step < size - 1; step++) {
            final int out = Math.floorMod(v - step, size);
            final int in = Math.floorMod(v - step - 1, size);
            final Pending<X> received =
                    p.receive(buf, offset + start[in] * e, start[in + 1] - start[in], type, left, tag);
            p.send(buf, offset + start[out] * e, start[out + 1] - start[out], type, right, tag)
                    .await();
            received.await();
        }
    }
}
