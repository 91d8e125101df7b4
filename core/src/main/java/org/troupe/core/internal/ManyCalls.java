package org.troupe.core.internal;

import java.lang.reflect.Method;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.service.CallMode;
import org.troupe.core.spi.CallHandler;
import org.troupe.core.spi.Calls;
import org.troupe.core.spi.MethodTable;
import org.troupe.core.spi.Outcome;
import org.troupe.core.spi.Spin;

/**
 * The calls on many active objects of the layers above the core: those of this JVM through their bodies, those of
 * others through {@link RemoteTargets}, which batches them per runtime. Holds no state of its own: one serves the
 * JVM, whether a runtime runs or not.
 */
public final class ManyCalls implements Calls {
    private final RemoteTargets remote;

    public ManyCalls(final RemoteTargets remote) {
        this.remote = remote;
    }

    @Override
    public Outcome[] send(
            final Object[] targets, final Method method, final Object[][] args, final IntFunction<String> roles) {
        return send(targets, method, args, roles, false);
    }

    @Override
    public Outcome[] sendAcknowledged(
            final Object[] targets, final Method method, final Object[][] args, final IntFunction<String> roles) {
        final Outcome[] out = send(targets, method, args, roles, true);
        if (method.getReturnType() == void.class) {
            for (final Outcome o : out) {
                // One that failed already (its arguments refused here, or a local target's quick failure) is the
                // caller's to throw now; those that fail later are its only news when it makes no other call.
                o.whenPending((v, t) -> {
                    if (t != null) {
                        OneWayFailures.report(o.call(), t);
                    }
                });
            }
        }
        return out;
    }

    private Outcome[] send(
            final Object[] targets,
            final Method method,
            final Object[][] args,
            final IntFunction<String> roles,
            final boolean acknowledged) {
        final Outcome[] out = new Outcome[targets.length];
        final CallHandler[] handlers = new CallHandler[targets.length];
        final int[] remoteIndexes = new int[targets.length];
        int remoteCount = 0;
        for (int i = 0; i < targets.length; i++) {
            final Object target = targets[i];
            final Supplier<String> what = describe(method, target, roles, i);
            try {
                final CallHandler h = ProxyGenerator.handlerOf(target);
                if (h instanceof StubHandler s) {
                    out[i] = s.send(indexIn(s.body().table(), method), args[i], what, acknowledged);
                } else if (h != null && remote.isRemote(h)) {
                    handlers[i] = h;
                    remoteIndexes[remoteCount++] = i;
                } else {
                    throw new IllegalArgumentException(target + " is not an active object");
                }
            } catch (RuntimeException e) {
                out[i] = FutureState.failed(what, e);
            }
        }
        if (remoteCount > 0) {
            remote.send(
                    handlers,
                    remoteIndexes,
                    remoteCount,
                    method,
                    args,
                    out,
                    i -> describe(method, targets[i], roles, i),
                    acknowledged);
        }
        return out;
    }

    private static Supplier<String> describe(
            final Method m, final Object target, final IntFunction<String> roles, final int i) {
        return () ->
                CallResults.describe(m, String.valueOf(target)) + (roles == null ? "" : " (" + roles.apply(i) + ")");
    }

    /** The index of {@code method} in {@code table}; fails if the class has no such public method. */
    public static int indexIn(final MethodTable table, final Method method) {
        final int index = table.indexOf(method.getName(), method.getParameterTypes());
        if (index < 0) {
            throw new IllegalArgumentException(table.type().getName() + " has no public method " + method);
        }
        return index;
    }

    @Override
    public CallMode resultMode(final Method method) {
        return CallModes.ofResult(method);
    }

    @Override
    public boolean isActiveObject(final Object object) {
        final CallHandler h = ProxyGenerator.handlerOf(object);
        return h instanceof StubHandler || h != null && remote.isRemote(h);
    }

    @Override
    public Object currentActiveObject() {
        final Body body = Body.current();
        return body == null ? null : body.proxy();
    }

    @Override
    public Class<?> classOf(final Object active) {
        final CallHandler h = ProxyGenerator.handlerOf(active);
        if (h instanceof StubHandler s) {
            return s.body().target().getClass();
        }
        if (h != null && remote.isRemote(h)) {
            return remote.classOf(h);
        }
        throw new IllegalArgumentException(active + " is not an active object");
    }

    @Override
    public Outcome futureOf(final Object object) {
        return ProxyGenerator.handlerOf(object) instanceof FutureHandler h ? h.state() : null;
    }

    @Override
    public <T> T futureProxy(final Outcome state, final Class<T> type, final Spin spin) {
        return type.cast(CallResults.futureProxy(state, type, spin));
    }

    @Override
    public Outcome pending(final Supplier<String> call) {
        return new FutureState(call);
    }

    @Override
    public Outcome failed(final Supplier<String> call, final Throwable cause) {
        return FutureState.failed(call, cause);
    }

    @Override
    public Outcome sent() {
        return FutureState.SENT;
    }
}
