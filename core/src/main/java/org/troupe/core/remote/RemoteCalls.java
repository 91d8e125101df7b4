package org.troupe.core.remote;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.troupe.core.internal.FutureState;
import org.troupe.core.internal.ManyCalls;
import org.troupe.core.internal.RemoteTargets;
import org.troupe.core.spi.CallHandler;
import org.troupe.core.spi.Outcome;

/**
 * The remote half of the calls on many objects: targets of one class in one other runtime, called with the same
 * method and the same argument array, get one message, so the arguments are serialized once per runtime.
 */
public final class RemoteCalls implements RemoteTargets {
    @Override
    public boolean isRemote(final CallHandler handler) {
        return handler instanceof RemoteStubHandler;
    }

    @Override
    public Class<?> classOf(final CallHandler handler) {
        return ((RemoteStubHandler) handler).table().type();
    }

    @Override
    public void send(
            final CallHandler[] handlers,
            final int[] indexes,
            final int count,
            final Method method,
            final Object[][] args,
            final Outcome[] out,
            final IntFunction<Supplier<String>> what,
            final boolean acknowledged) {
        final List<Batch> batches = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            final int i = indexes[k];
            final RemoteStubHandler r = (RemoteStubHandler) handlers[i];
            try {
                batchOf(batches, r, ManyCalls.indexIn(r.table(), method), args[i])
                        .add(i, r);
            } catch (RuntimeException e) {
                out[i] = FutureState.failed(what.apply(i), e);
            }
        }
        for (final Batch b : batches) {
            b.send(out, what, acknowledged);
        }
    }

    private static Batch batchOf(
            final List<Batch> batches, final RemoteStubHandler r, final int method, final Object[] args) {
        for (final Batch b : batches) {
            if (b.args == args
                    && b.first.table() == r.table()
                    && b.method == method
                    && b.first.runtimeId().equals(r.runtimeId())) {
                return b;
            }
        }
        final Batch b = new Batch(r, method, args);
        batches.add(b);
        return b;
    }

    /** Targets of one class in one other runtime, called with the same method and the same arguments. */
    private static final class Batch {
        final RemoteStubHandler first;
        final int method;
        final Object[] args;
        int count;
        int[] indexes = new int[4];
        long[] objectIds = new long[4];

        Batch(final RemoteStubHandler first, final int method, final Object[] args) {
            this.first = first;
            this.method = method;
            this.args = args;
        }

        void add(final int index, final RemoteStubHandler r) {
            if (count == indexes.length) {
                indexes = Arrays.copyOf(indexes, count * 2);
                objectIds = Arrays.copyOf(objectIds, count * 2);
            }
            indexes[count] = index;
            objectIds[count++] = r.objectId();
        }

        void send(final Outcome[] out, final IntFunction<Supplier<String>> what, final boolean acknowledged) {
            final long[] ids = Arrays.copyOf(objectIds, count);
            try {
                final Outcome[] sent = first.sendMany(ids, method, args, i -> what.apply(indexes[i]), acknowledged);
                for (int i = 0; i < count; i++) {
                    out[indexes[i]] = sent[i];
                }
            } catch (RuntimeException e) {
                for (int i = 0; i < count; i++) {
                    out[indexes[i]] = FutureState.failed(what.apply(indexes[i]), e);
                }
            }
        }
    }
}
