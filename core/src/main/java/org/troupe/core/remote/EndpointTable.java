package org.troupe.core.remote;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.internal.TroupeUrl;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;
import org.troupe.core.spi.Endpoints;

/**
 * The endpoints of one runtime. A frame to an endpoint of this runtime is handed to its handler on the sender's
 * thread; one to another runtime goes to its {@link Peer} as an endpoint frame, and comes back here through
 * {@link #deliver} on the thread that reads it.
 */
public final class EndpointTable implements Endpoints {
    private static final Logger LOG = LoggerFactory.getLogger(EndpointTable.class);

    private final String runtimeId;
    /** The runtime's remote side, made on first use (a runtime with no transport has endpoints all the same). */
    private final Supplier<Remoting> remoting;
    /** The remote side once made: a send need not ask the runtime (which locks) every time. */
    private volatile Remoting remote;

    private final Supplier<String> address;
    private final Map<Long, Open> byId = new ConcurrentHashMap<>();
    private final Map<String, Open> byName = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(1);
    private final Set<Long> warnedDrops = ConcurrentHashMap.newKeySet();
    /** Runtimes the endpoints were told are lost: nothing is sent to them or handed on from them again. */
    private final Set<String> lost = ConcurrentHashMap.newKeySet();

    public EndpointTable(final String runtimeId, final Supplier<Remoting> remoting, final Supplier<String> address) {
        this.runtimeId = runtimeId;
        this.remoting = remoting;
        this.address = address;
    }

    @Override
    public Endpoint open(final String name, final EndpointHandler handler) {
        if (name == null || name.isEmpty() || handler == null) {
            throw new IllegalArgumentException(
                    "An endpoint needs a name and a handler, got " + name + " and " + handler);
        }
        final Open e = new Open(name, new EndpointAddress(runtimeId, address.get(), nextId.getAndIncrement()), handler);
        if (byName.putIfAbsent(name, e) != null) {
            throw new IllegalArgumentException(
                    "An endpoint called " + name + " is open already in runtime " + runtimeId);
        }
        byId.put(e.address.id(), e);
        return e;
    }

    @Override
    public EndpointAddress lookup(final String name) {
        if (TroupeUrl.isUrl(name)) {
            final TroupeUrl url = TroupeUrl.parse(name, "endpoint");
            // this runtime's own address: its endpoint, as a runtime does not link to itself
            return url.address().equals(remote().address())
                    ? lookup(url.name())
                    : remote().lookupEndpoint(url.address(), url.name());
        }
        final EndpointAddress found = find(name);
        if (found == null) {
            throw new TroupeException("No endpoint called " + name + " is open in runtime " + runtimeId + " (open: "
                    + byName.keySet() + ")");
        }
        return found;
    }

    private Remoting remote() {
        final Remoting r = remote;
        return r != null ? r : (remote = remoting.get());
    }

    /** The open endpoint called {@code name} here, or null. */
    EndpointAddress find(final String name) {
        final Open e = byName.get(name);
        return e == null ? null : e.address;
    }

    /** A frame from {@code from} for our endpoint {@code id}; dropped (once said) if it is not open. */
    void deliver(final EndpointAddress from, final long id, final ByteBuffer header, final ByteBuffer payload) {
        if (isLost(from.runtimeId())) {
            return; // its frames may still come on another link, after the endpoints were told it is gone
        }
        final Open e = byId.get(id);
        if (e == null) {
            if (warnedDrops.add(id)) {
                LOG.warn("Dropping frames from {} for endpoint #{} of runtime {}: it is not open", from, id, runtimeId);
            }
            return;
        }
        e.receive(from, header, payload);
    }

    /** Whether the endpoints were told that runtime {@code runtimeId} is lost. */
    boolean isLost(final String runtimeId) {
        return !lost.isEmpty() && lost.contains(runtimeId);
    }

    /** Tells every open endpoint, once, that {@code lostRuntimeId} is gone. */
    void runtimeLost(final String lostRuntimeId, final String reason) {
        if (!lost.add(lostRuntimeId)) {
            return;
        }
        for (final Open e : byId.values()) {
            try {
                e.handler.runtimeLost(lostRuntimeId, reason);
            } catch (RuntimeException x) { // one endpoint's bug must not keep the news from the others
                LOG.warn("Endpoint {} failed on the loss of runtime {}", e.address, lostRuntimeId, x);
            }
        }
    }

    private final class Open implements Endpoint {
        final String name;
        final EndpointAddress address;
        final EndpointHandler handler;
        private volatile boolean closed;

        Open(final String name, final EndpointAddress address, final EndpointHandler handler) {
            this.name = name;
            this.address = address;
            this.handler = handler;
        }

        @Override
        public EndpointAddress address() {
            return address;
        }

        /**
         * Hands a frame to the handler; a handler that throws loses that frame only: not the link (whose other
         * traffic is not at fault), nor the sender's call (which the same frame to another runtime would not fail).
         */
        void receive(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
            try {
                handler.received(from, header, payload);
            } catch (RuntimeException x) {
                LOG.warn("Endpoint {} failed on a frame from {}; the frame is lost", this, from, x);
            }
        }

        @Override
        public void send(
                final EndpointAddress to, final ByteBuffer header, final ByteBuffer payload, final boolean batch) {
            if (closed) {
                throw new IllegalStateException("Endpoint " + name + " is closed: open another to send");
            }
            if (header.remaining() > MAX_HEADER_BYTES) {
                throw new IllegalArgumentException("An endpoint frame's header has at most " + MAX_HEADER_BYTES
                        + " bytes, not " + header.remaining());
            }
            if (to.runtimeId().equals(runtimeId)) {
                final Open target = byId.get(to.id());
                if (target == null) {
                    throw new TroupeException("Endpoint " + to + " is not open in this runtime");
                }
                target.receive(address, header.asReadOnlyBuffer(), payload.asReadOnlyBuffer());
                return;
            }
            remote().endpointPeer(to).sendEndpoint(to.id(), address.id(), header, payload, batch);
        }

        @Override
        public void close() {
            closed = true;
            byName.remove(name, this);
            byId.remove(address.id(), this);
        }

        @Override
        public String toString() {
            return name + " (" + address + ")";
        }
    }
}
