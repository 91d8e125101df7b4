package org.troupe.core.remote;

import java.util.concurrent.atomic.AtomicBoolean;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.internal.CallResults;
import org.troupe.core.internal.FutureHandler;
import org.troupe.core.internal.FutureState;
import org.troupe.core.internal.StubHandler;
import org.troupe.core.spi.CallHandler;
import org.troupe.core.spi.Outcome;
import org.troupe.core.spi.PortableHandler;
import org.troupe.core.spi.Proxied;
import org.troupe.core.transport.Addresses;
import org.troupe.serialization.WireForm;

/**
 * How proxies cross one connection. An active object crosses as its address; a resolved future as its value; a
 * pending future as an id on this connection, whose value this runtime pushes to the peer when it comes
 * (automatic continuation), so the future can travel on before it is resolved. This runtime names itself with the
 * address it announced on this connection (the peer reaches it there, whatever other peers reach it at); an object
 * of a third runtime keeps the address that runtime announced to us.
 */
final class ProxyForm implements WireForm<Proxied, RemoteRef> {
    private final Remoting remoting;
    private final Peer peer;

    ProxyForm(final Remoting remoting, final Peer peer) {
        this.remoting = remoting;
        this.peer = peer;
    }

    @Override
    public Class<Proxied> type() {
        return Proxied.class;
    }

    @Override
    public Class<RemoteRef> wireType() {
        return RemoteRef.class;
    }

    @Override
    public RemoteRef replace(final Proxied value) {
        final CallHandler h = value.troupe$handler();
        final String self = peer.link.localAddress();
        if (h instanceof StubHandler s) {
            return new RemoteRef(
                    RemoteRef.STUB,
                    remoting.runtimeId(),
                    self,
                    s.body().id(),
                    s.body().target().getClass().getName(),
                    false,
                    null,
                    null,
                    s.nodeName());
        }
        if (h instanceof RemoteStubHandler r) {
            return seenFromThePeer(r.ref(), self);
        }
        if (h instanceof FutureHandler f) {
            final Outcome state = f.state();
            final String type = f.type().getName();
            final long id = remoting.nextFutureId();
            final AtomicBoolean abandoned = peer.writer().passingOnFuture();
            // Not whenDone: we are inside this peer's send, and a push sent from here would overwrite the frame.
            if (state.whenPending((v, t) -> peer.futureValue(id, v, t, abandoned))) {
                return new RemoteRef(RemoteRef.FUTURE, remoting.runtimeId(), self, id, type, false, null, null, null);
            }
            final Throwable failure = state.failure();
            return new RemoteRef(
                    RemoteRef.FUTURE,
                    remoting.runtimeId(),
                    self,
                    0,
                    type,
                    true,
                    failure == null ? Remoting.valueOf(state) : null,
                    failure == null ? null : RemoteFailure.of(failure),
                    null);
        }
        if (h instanceof PortableHandler p) {
            return new RemoteRef(
                    RemoteRef.PORTABLE,
                    remoting.runtimeId(),
                    self,
                    0,
                    p.type().getName(),
                    true,
                    p.recipe(),
                    null,
                    null);
        }
        throw new TroupeException("A proxy with a " + h.getClass().getName() + " cannot cross the wire");
    }

    /**
     * A third runtime that this one reaches at a loopback address is on this host: a peer that reaches this host at
     * {@code self}, another address, finds it there too (at its own port), never at the loopback address, which is
     * the peer's own host to the peer.
     */
    private static RemoteRef seenFromThePeer(final RemoteRef ref, final String self) {
        if (ref.address().lastIndexOf(':') < 0
                || self.lastIndexOf(':') < 0
                || !Addresses.isLoopback(Addresses.host(ref.address()))
                || Addresses.isLoopback(Addresses.host(self))) {
            return ref;
        }
        return new RemoteRef(
                ref.kind(),
                ref.runtimeId(),
                Addresses.hostPort(Addresses.host(self), Addresses.port(ref.address())),
                ref.id(),
                ref.typeName(),
                ref.resolved(),
                ref.value(),
                ref.failure(),
                ref.node());
    }

    @Override
    public Object resolve(final RemoteRef ref) {
        if (ref.kind() == RemoteRef.STUB) {
            return remoting.proxyFor(ref);
        }
        final Class<?> type = remoting.proxyType(ref.typeName());
        if (ref.kind() == RemoteRef.PORTABLE) {
            if (!(ref.value() instanceof PortableHandler.Recipe recipe)) {
                throw new TroupeException("A peer sent a proxy of " + ref.typeName() + " without its recipe");
            }
            return recipe.proxy(type);
        }
        if (ref.resolved() && ref.failure() == null) {
            return ref.value();
        }
        final FutureState state;
        if (ref.resolved()) {
            state = new FutureState(() -> "a future from " + peer.describe());
            state.fail(ref.failure().toThrowable(remoting.connectionConfig(), state.call()));
        } else {
            state = peer.incomingFuture(ref.id());
        }
        return CallResults.futureProxy(state, type, peer.spin());
    }
}
