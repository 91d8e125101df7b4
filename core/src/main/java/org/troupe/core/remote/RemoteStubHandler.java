package org.troupe.core.remote;

import java.lang.reflect.Method;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.troupe.core.internal.CallModes;
import org.troupe.core.internal.CallResults;
import org.troupe.core.internal.FutureState;
import org.troupe.core.internal.RefusedArguments;
import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.service.CallMode;
import org.troupe.core.spi.CallHandler;
import org.troupe.core.spi.MethodTable;
import org.troupe.serialization.NotSendableException;

/** Behind the proxy of an active object in another JVM: each call becomes a frame on the link to it. */
public final class RemoteStubHandler implements CallHandler {
    private final Remoting remoting;
    private final RemoteRef ref;
    private final MethodTable table;
    private final CallMode[] modes;
    private final String name;
    private final CallResults results;

    RemoteStubHandler(final Remoting remoting, final RemoteRef ref, final Class<?> type) {
        this.remoting = remoting;
        this.ref = ref;
        this.table = MethodTable.of(type);
        this.modes = CallModes.of(type);
        this.name = type.getSimpleName() + "#" + ref.id() + "@troupe://" + ref.address()
                + (ref.node() == null ? "" : "/" + ref.node());
        this.results = new CallResults(remoting.config().synchronousCalls(), remoting.spinNanos(), modes.length);
    }

    RemoteRef ref() {
        return ref;
    }

    /** The runtime the object lives in. */
    public String runtimeId() {
        return ref.runtimeId();
    }

    /** Where that runtime listens. */
    public String address() {
        return ref.address();
    }

    /** The object's id in its runtime. */
    public long objectId() {
        return ref.id();
    }

    /** The methods of the object's class, as its runtime numbers them. */
    public MethodTable table() {
        return table;
    }

    /**
     * Sends one call with the same arguments to several objects of the runtime this object lives in (this one
     * among them, or not), in one message: the arguments are serialized once. One future per object; for a
     * one-way call, {@link FutureState#SENT}, unless {@code acknowledged}: then each object answers once it has
     * run the call.
     */
    public FutureState[] sendMany(
            final long[] objectIds,
            final int method,
            final Object[] args,
            final IntFunction<Supplier<String>> what,
            final boolean acknowledged) {
        final CallMode mode = modes[method];
        if (objectIds.length == 0) {
            return new FutureState[0]; // a frame for no object would be refused by the peer
        }
        try {
            return remoting.peer(ref.runtimeId(), ref.address())
                    .callMany(objectIds, method, args, mode == CallMode.ONE_WAY && !acknowledged, what);
        } catch (NotSendableException e) {
            throw RefusedArguments.of(e, table.method(method), args);
        }
    }

    /** Ends the remote active object. */
    public void terminate() {
        remoting.peer(ref.runtimeId(), ref.address()).terminate(ref.id());
    }

    @Override
    public Object handle(final int method, final Object[] args) throws Throwable {
        switch (method) {
            case MethodTable.EQUALS:
                return args[0] != null
                        && ProxyGenerator.handlerOf(args[0]) instanceof RemoteStubHandler r
                        && r.ref.id() == ref.id()
                        && r.ref.runtimeId().equals(ref.runtimeId());
            case MethodTable.HASH_CODE:
                return Long.hashCode(ref.id()) * 31 + ref.runtimeId().hashCode();
            case MethodTable.TO_STRING:
                return name;
            default:
                break;
        }
        final Method m = table.method(method);
        final CallMode mode = modes[method];
        final Peer peer = remoting.peer(ref.runtimeId(), ref.address());
        final Supplier<String> what = () -> CallResults.describe(m, name);
        if (mode == CallMode.SYNCHRONOUS) {
            results.checkSynchronous(method, m, what);
        }
        final FutureState f;
        try {
            f = peer.call(ref.id(), method, args, mode == CallMode.ONE_WAY, what);
        } catch (NotSendableException e) {
            throw RefusedArguments.of(e, m, args);
        }
        return mode == CallMode.ONE_WAY ? null : results.of(mode, f, m.getReturnType());
    }
}
