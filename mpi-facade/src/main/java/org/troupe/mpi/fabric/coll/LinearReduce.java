package org.troupe.mpi.fabric.coll;

import org.troupe.mpi.fabric.Kind;

/**
 * A reduction with an operation that need not commute: every rank sends its values to the root, which combines them
 * in rank order, {@code x0 op (x1 op (... op x(size-1)))}.
 */
public final class LinearReduce {
    private LinearReduce() {}

    /** Combines every rank's {@code count} items of {@code sendbuf} with {@code op} into {@code root}'s {@code recvbuf}. */
    public static <T, X extends Exception> void run(
            final PointToPoint<T, X> p,
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
        if (p.rank() != root) {
            p.send(acc, 0, count, type, root, tag).await();
            return;
        }
        // acc = x(size-1), then x(i) op acc for i going down: the result is x0 op x1 op ... in rank order.
        final Object[] parts = new Object[size];
        final Pending<X>[] in = Pending.slots(size);
        for (int r = 0; r < size; r++) {
            if (r != root) {
                parts[r] = kind.newArray(n);
                in[r] = p.receive(parts[r], 0, count, type, r, tag);
            } else {
                parts[r] = acc;
            }
        }
        Pending.awaitAll(in);
        final Object result = kind.copyOf(parts[size - 1], 0, n);
        for (int r = size - 2; r >= 0; r--) {
            op.apply(parts[r], 0, result, 0, count);
        }
        System.arraycopy(result, 0, recvbuf, recvoffset, n);
    }
}
