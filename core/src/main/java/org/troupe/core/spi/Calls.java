package org.troupe.core.spi;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.internal.Body;
import org.troupe.core.internal.CallModes;
import org.troupe.core.internal.CallResults;
import org.troupe.core.internal.FutureHandler;
import org.troupe.core.internal.OneWayFailures;
import org.troupe.core.internal.StubHandler;
import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.remote.RemoteStubHandler;
import org.troupe.core.service.CallMode;
import org.troupe.core.spi.MethodTable;
import org.troupe.core.spi.Spin;

/**
 * Calls on several active objects at once, for the layers built on the core (groups, collectives); applications
 * use those. A call never waits here: each target's outcome is a {@link Outcome}, whatever the method's
 * {@link CallMode}. Targets of one other JVM that are given the same argument array get one message, so the
 * arguments are serialized once per JVM; each target still gets its own copy of them.
 */
public final class Calls {
    private Calls() {
    }

    /**
     * Calls {@code method} on every target, target {@code i} with {@code args[i]}.
     *
     * @param targets active objects (proxies), of {@code method}'s class or of subclasses
     * @return per target, its call's outcome: its result, or for a {@code void} method null once the call is on
     *     its way; a target that cannot be called has a failed outcome, and the others are called all the same
     */
    public static Outcome[] send(final Object[] targets, final Method method, final Object[][] args) {
        return send(targets, method, args, null);
    }

    /**
     * As {@link #send(Object[], Method, Object[][])}; {@code roles}, if not null, says what target {@code i} is to
     * the caller ("member 2 of a group of 4"), for the messages of its call's failure.
     */
    public static Outcome[] send(final Object[] targets, final Method method, final Object[][] args,
                                 final IntFunction<String> roles) {
        return send(targets, method, args, roles, false);
    }

    /**
     * As {@link #send(Object[], Method, Object[][], IntFunction)}, but the outcome of a {@code void} method is
     * settled once the target has run it: null, or what the method threw (or why it was not run), so that the
     * caller can keep it (a group reports it at its next call). A failure that comes after this returns is also
     * reported as a one-way call's is: logged in this JVM and handed to the
     * {@link org.troupe.core.ActiveObjects#onOneWayFailure} listeners, named with its role; one known by then (the
     * arguments refused here, say) is the caller's to throw. The target answers each call: a small message back
     * per target.
     */
    public static Outcome[] sendAcknowledged(final Object[] targets, final Method method, final Object[][] args,
                                             final IntFunction<String> roles) {
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

    private static Outcome[] send(final Object[] targets, final Method method, final Object[][] args,
                                  final IntFunction<String> roles, final boolean acknowledged) {
        final Outcome[] out = new Outcome[targets.length];
        final List<Batch> batches = new ArrayList<>();
        for (int i = 0; i < targets.length; i++) {
            final Object target = targets[i];
            final Supplier<String> what = describe(method, target, roles, i);
            try {
                switch (ProxyGenerator.handlerOf(target)) {
                    case StubHandler s -> out[i] = s.send(indexIn(s.body().table(), method), args[i], what,
                        acknowledged);
                    case RemoteStubHandler r -> batchOf(batches, r, indexIn(r.table(), method), args[i]).add(i, r);
                    case null, default -> throw new IllegalArgumentException(target + " is not an active object");
                }
            } catch (RuntimeException e) {
                out[i] = Outcome.failed(what, e);
            }
        }
        for (final Batch b : batches) {
            b.send(targets, method, out, roles, acknowledged);
        }
        return out;
    }

    private static Supplier<String> describe(final Method m, final Object target, final IntFunction<String> roles,
                                             final int i) {
        return () -> CallResults.describe(m, String.valueOf(target))
            + (roles == null ? "" : " (" + roles.apply(i) + ")");
    }

    /**
     * How a call of {@code method} returns its result, from its signature alone: {@link CallMode#FUTURE} when the
     * result can be a future proxy.
     */
    public static CallMode resultMode(final Method method) {
        return CallModes.ofResult(method);
    }

    /** Whether {@code object} is the proxy of an active object (of this JVM or another). */
    public static boolean isActiveObject(final Object object) {
        final Object h = ProxyGenerator.handlerOf(object);
        return h instanceof StubHandler || h instanceof RemoteStubHandler;
    }

    /** The proxy of the active object whose own thread calls this, or null for any other thread. */
    public static Object currentActiveObject() {
        final Body body = Body.current();
        return body == null ? null : body.proxy();
    }

    /** The class of the object behind an active object's proxy. */
    public static Class<?> classOf(final Object active) {
        return switch (ProxyGenerator.handlerOf(active)) {
            case StubHandler s -> s.body().target().getClass();
            case RemoteStubHandler r -> r.table().type();
            case null, default -> throw new IllegalArgumentException(active + " is not an active object");
        };
    }

    /** The state behind a future proxy, or null if {@code object} is not one. */
    public static Outcome futureOf(final Object object) {
        return ProxyGenerator.handlerOf(object) instanceof FutureHandler h ? h.state() : null;
    }

    /**
     * A future proxy of {@code type} for {@code state}: touching it waits (wait-by-necessity), spinning as
     * {@code spin} says; the futures of one caller share one, as it learns how long their waits are.
     */
    public static <T> T futureProxy(final Outcome state, final Class<T> type, final Spin spin) {
        return type.cast(CallResults.futureProxy(state, type, spin));
    }

    /** Bytes this JVM's runtime has sent to other JVMs so far (frames, headers included). */
    public static long bytesSent() {
        return TroupeRuntime.get().bytesSent();
    }

    private static int indexIn(final MethodTable table, final Method method) {
        final int index = table.indexOf(method.getName(), method.getParameterTypes());
        if (index < 0) {
            throw new IllegalArgumentException(table.type().getName() + " has no public method " + method);
        }
        return index;
    }

    private static Batch batchOf(final List<Batch> batches, final RemoteStubHandler r, final int method,
                                 final Object[] args) {
        for (final Batch b : batches) {
            if (b.args == args && b.first.table() == r.table() && b.method == method
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

        void send(final Object[] targets, final Method m, final Outcome[] out, final IntFunction<String> roles,
                  final boolean acknowledged) {
            final long[] ids = Arrays.copyOf(objectIds, count);
            try {
                final Outcome[] sent = first.sendMany(ids, method, args,
                    i -> describe(m, targets[indexes[i]], roles, indexes[i]), acknowledged);
                for (int i = 0; i < count; i++) {
                    out[indexes[i]] = sent[i];
                }
            } catch (RuntimeException e) {
                for (int i = 0; i < count; i++) {
                    out[indexes[i]] = Outcome.failed(describe(m, targets[indexes[i]], roles, indexes[i]), e);
                }
            }
        }
    }
}
