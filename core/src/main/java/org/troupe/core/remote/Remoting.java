package org.troupe.core.remote;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.core.exceptions.TerminatedException;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.internal.Body;
import org.troupe.core.internal.CallModes;
import org.troupe.core.internal.CallResults;
import org.troupe.core.internal.FutureState;
import org.troupe.core.internal.LocalRuntime;
import org.troupe.core.internal.ReplySink;
import org.troupe.core.internal.Request;
import org.troupe.core.internal.RuntimeSettings;
import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.service.CallMode;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.MethodTable;
import org.troupe.core.spi.Outcome;
import org.troupe.core.spi.Spin;
import org.troupe.core.transport.Addresses;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;
import org.troupe.core.transport.Transport;
import org.troupe.serialization.SerializationConfig;

/**
 * The runtime's dealings with other JVMs: one {@link Peer} per linked runtime, the requests they send us, and the
 * nodes that registered with us. Not for applications: they use {@code ActiveObjects} and {@code TroupeRuntime}.
 */
public final class Remoting implements LinkHandler, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Remoting.class);

    /** A node of another runtime that registered with this one. */
    public record NodeInfo(String name, String runtimeId, String address) {
    }

    private final LocalRuntime runtime;
    private final RuntimeSettings config;
    private final Transport transport;
    private final SerializationConfig connectionConfig;
    private final Map<String, Peer> peers = new ConcurrentHashMap<>();
    private final Map<Link, Peer> byLink = new ConcurrentHashMap<>();
    private final AtomicLong futureIds = new AtomicLong(1);
    private final Map<String, NodeInfo> nodes = new ConcurrentHashMap<>();
    private final Object nodesChanged = new Object();
    private final List<BiConsumer<String, String>> lostListeners = new CopyOnWriteArrayList<>();
    private final List<java.util.function.Consumer<NodeInfo>> nodeListeners = new CopyOnWriteArrayList<>();
    private volatile String address = "";
    private final LongAdder bytesSent = new LongAdder();
    private final EndpointTable endpoints;
    /** The runtime each address dialed so far led to: a runtime dialed by another name than it announced. */
    private final Map<String, String> dialed = new ConcurrentHashMap<>();

    /** Fails the calls past the call deadline; null without one. */
    private final ScheduledExecutorService deadlines;

    public Remoting(final LocalRuntime runtime, final Transport transport, final EndpointTable endpoints) {
        this.runtime = runtime;
        this.endpoints = endpoints;
        this.config = runtime.settings();
        this.transport = transport;
        this.connectionConfig = runtime.wireConfig();
        final long timeout = config.callTimeout().toNanos();
        if (timeout > 0) {
            deadlines = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("troupe-call-deadlines").factory());
            // A call fails at most an eighth of its deadline late, and a check costs little when nothing expires.
            final long period = Math.clamp(timeout / 8, 5_000_000L, 1_000_000_000L);
            deadlines.scheduleAtFixedRate(this::expireCalls, period, period, TimeUnit.NANOSECONDS);
        } else {
            deadlines = null;
        }
    }

    private void expireCalls() {
        final long now = System.nanoTime();
        for (final Peer p : byLink.values()) {
            try {
                p.expireCalls(now);
            } catch (Throwable t) { // the timer must go on: a task that throws is never run again
                LOG.warn("Failing calls past their deadline: {}", t.toString());
            }
        }
    }

    // --- What the proxies and the form need ---

    String runtimeId() {
        return runtime.id();
    }

    /** Where this runtime listens, or "" if it does not. */
    public String address() {
        return address;
    }

    RuntimeSettings config() {
        return config;
    }

    SerializationConfig connectionConfig() {
        return connectionConfig;
    }

    long spinNanos() {
        return config.spinNanos();
    }

    void sent(final int bytes) {
        bytesSent.add(bytes);
    }

    /** Bytes of the frames this runtime has sent to others: what it serialized, with the frames' headers. */
    public long bytesSent() {
        return bytesSent.sum();
    }

    long nextFutureId() {
        return futureIds.getAndIncrement();
    }

    static Object valueOf(final Outcome done) {
        return done.await(Spin.NONE);
    }

    /**
     * The class of a proxy named by a peer: an allowed class, or a JDK interface (a future of a {@code List}). Never
     * a JDK class: its proxy would be a fake {@code ArrayList} or {@code Thread} whose every method calls the peer.
     */
    Class<?> proxyType(final String name) {
        final boolean jdk = name.startsWith("java.");
        if (!jdk && !connectionConfig.allowsClassName(name)) {
            throw new TroupeException("A peer sent a proxy of " + name + ", which is not allowed here; "
                + connectionConfig.howToAllow(name));
        }
        final Class<?> type;
        try {
            type = Class.forName(name, false, Remoting.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new TroupeException("A peer sent a proxy of " + name + ", which is not on this JVM's class path", e);
        }
        if (jdk && !type.isInterface()) {
            throw new TroupeException("A peer sent a proxy of " + name + ", a JDK class: of the JDK's types, only an"
                + " interface may be a proxy");
        }
        return type;
    }

    /** The proxy of the active object {@code ref} names: local if it lives here, remote otherwise. */
    Object proxyFor(final RemoteRef ref) {
        if (ref.runtimeId().equals(runtime.id())) {
            final Body body = runtime.body(ref.id());
            if (body == null || !body.isActive()) {
                throw new TerminatedException("Active object " + ref.id() + " of this runtime is terminated");
            }
            return body.proxy();
        }
        final Class<?> type = proxyType(ref.typeName());
        return ProxyGenerator.newProxy(type, new RemoteStubHandler(this, ref, type));
    }

    // --- Links ---

    /** Starts listening (if not yet) as the transport is configured; returns where peers reach this runtime. */
    public String listen() {
        return listen(null);
    }

    /**
     * Starts listening (if not yet) on the interface {@code bindHost} (as the transport is configured: null);
     * returns where peers reach this runtime.
     */
    public synchronized String listen(final String bindHost) {
        if (address.isEmpty()) {
            address = bindHost == null ? transport.listen(this) : transport.listen(this, bindHost);
        }
        return address;
    }

    /** The peer with that runtime id, linked anew through {@code peerAddress} if there is no open link. */
    Peer peer(final String runtimeId, final String peerAddress) {
        final Peer p = peers.get(runtimeId);
        if (p != null && p.isOpen()) {
            return p;
        }
        if (peerAddress == null || peerAddress.isEmpty()) {
            throw new PeerFailedException(runtimeId, "no link to it, and it announced no address to reach it at");
        }
        final Peer fresh = connect(peerAddress, runtimeId);
        if (!fresh.link.peerRuntimeId().equals(runtimeId)) { // the handshake refuses it; kept as a guard
            throw new PeerFailedException(runtimeId + " at " + peerAddress, "that address now belongs to runtime "
                + fresh.link.peerRuntimeId());
        }
        return fresh;
    }

    /** Links to the runtime listening at {@code peerAddress} (if not linked yet); returns its runtime id. */
    public String link(final String peerAddress) {
        return connectedPeer(peerAddress).link.peerRuntimeId();
    }

    /**
     * Opens a new link to the runtime listening at {@code peerAddress}: to the runtime {@code expectedId} only,
     * unless it is empty.
     */
    private Peer connect(final String peerAddress, final String expectedId) {
        final Link link;
        try {
            link = transport.connect(peerAddress, expectedId, this, config.connectTimeout());
        } catch (IllegalStateException e) {
            throw new PeerFailedException(peerAddress, e.getMessage() + loopbackHint(peerAddress, e.getCause()),
                e.getCause());
        }
        return peerOf(link);
    }

    /**
     * Why a runtime announced at a loopback address may be out of reach, when the network said so: that address
     * reaches only runtimes of this host, and the one announced at it (by a peer that reached it there) may be on
     * another.
     */
    private String loopbackHint(final String peerAddress, final Throwable cause) {
        final String host;
        try {
            host = Addresses.host(peerAddress);
        } catch (IllegalArgumentException notHostPort) { // another transport's kind of address
            return "";
        }
        if (!Addresses.isNetworkFailure(cause) || !Addresses.isLoopback(host)) {
            return "";
        }
        return "; " + host + " is a loopback address, which reaches only this host: if that runtime runs on another"
            + " host, start it with " + config.bindAddressKey() + "=<an address of its host that the others"
            + " reach> (or 0.0.0.0)";
    }

    /**
     * The peer of a link, made on its first use. A runtime's first open link stays the one everything is sent on:
     * a second one (both sides dialing at once, or a runtime dialed by another name) only carries what the other
     * side sends on it, so that frames sent one after the other never race on two links.
     */
    private Peer peerOf(final Link link) {
        return byLink.computeIfAbsent(link, l -> {
            final Peer p = new Peer(l, this);
            peers.compute(l.peerRuntimeId(), (id, first) -> first != null && first.isOpen() ? first : p);
            return p;
        });
    }

    @Override
    public void opened(final Link link) {
        peerOf(link);
    }

    @Override
    public void received(final Link link, final byte[] frame, final int offset, final int length) {
        try {
            peerOf(link).received(frame, offset, length);
        } catch (RuntimeException e) {
            LOG.warn("Dropping the link to {}: a frame could not be read ({})", link.peerRuntimeId(), e.toString());
            link.close("unreadable frame: " + e.getMessage());
        }
    }

    @Override
    public void closed(final Link link, final String reason) {
        final Peer p = byLink.remove(link);
        if (p != null) {
            p.closed(reason);
        }
        LOG.debug("Link to {} closed: {}", link.peerRuntimeId(), reason);
        if (p == null || !peers.remove(link.peerRuntimeId(), p)) {
            return; // a second link: the runtime is still reached through its first
        }
        nodes.values().removeIf(n -> n.runtimeId().equals(link.peerRuntimeId()));
        endpoints.runtimeLost(link.peerRuntimeId(), reason);
        for (final BiConsumer<String, String> l : lostListeners) {
            l.accept(link.peerRuntimeId(), reason);
        }
    }

    /** Calls {@code listener(runtimeId, reason)} whenever a link to a peer ends; the returned action removes it. */
    public Runnable onPeerLost(final BiConsumer<String, String> listener) {
        lostListeners.add(listener);
        return () -> lostListeners.remove(listener);
    }

    /**
     * Calls {@code listener} on the link's reader thread whenever a runtime registers a node with this one; running
     * the returned action removes it.
     */
    public Runnable onNodeRegistered(final java.util.function.Consumer<NodeInfo> listener) {
        nodeListeners.add(listener);
        return () -> nodeListeners.remove(listener);
    }

    /** Closes the link to runtime {@code runtimeId}, if any; a node JVM whose parent link closes exits. */
    public void disconnect(final String runtimeId, final String reason) {
        final Peer p = peers.get(runtimeId);
        if (p != null) {
            p.link.close(reason);
        }
    }

    // --- Requests to peers ---

    /** Creates an active object on a node of another runtime and returns its proxy. */
    public Object create(final String runtimeId, final String peerAddress, final String nodeName,
                         final Class<?> type, final Object[] args) {
        final FutureState f = peer(runtimeId, peerAddress).request(Frames.CREATE,
            new Object[] {type.getName(), nodeName, args}, "creating a " + type.getName() + " on node " + nodeName);
        return f.await(new Spin(spinNanos()));
    }

    /** The active object registered as {@code name} in the runtime at {@code peerAddress}. */
    public Object lookup(final String peerAddress, final String name) {
        return connectedPeer(peerAddress).request(Frames.LOOKUP, name, "looking up " + name + " at " + peerAddress)
            .await(new Spin(spinNanos()));
    }

    /** The open link to the runtime at {@code peerAddress}, whatever name it is dialed by; made if there is none. */
    private Peer connectedPeer(final String peerAddress) {
        final String known = dialed.get(peerAddress);
        final Peer same = known == null ? null : peers.get(known);
        if (same != null && same.isOpen()) {
            return same;
        }
        for (final Peer p : peers.values()) {
            if (p.isOpen() && p.link.peerAddress().equals(peerAddress)) {
                return p;
            }
        }
        final Peer fresh = connect(peerAddress, "");
        final String id = fresh.link.peerRuntimeId();
        dialed.put(peerAddress, id);
        final Peer first = peers.get(id);
        if (first != null && first != fresh && first.isOpen()) {
            fresh.link.close("a link to " + id + " is open already");
            return first;
        }
        return fresh;
    }

    // --- Endpoints ---

    /**
     * The open link to the endpoint's runtime, made now if there never was one. Frames an endpoint sends must not
     * be lost or reordered unseen, so once a runtime's link ended it counts as lost, whatever links others make.
     */
    Peer endpointPeer(final EndpointAddress to) {
        if (endpoints.isLost(to.runtimeId())) {
            throw new PeerFailedException(to.runtimeId(), "its link was lost, and endpoint frames are not sent over"
                + " a new one");
        }
        return peer(to.runtimeId(), to.runtimeAddress());
    }

    void deliverEndpoint(final EndpointAddress from, final long to, final ByteBuffer header,
                         final ByteBuffer payload) {
        endpoints.deliver(from, to, header, payload);
    }

    /** The address of the endpoint called {@code name} in the runtime at {@code peerAddress}. */
    EndpointAddress lookupEndpoint(final String peerAddress, final String name) {
        return (EndpointAddress) connectedPeer(peerAddress).request(Frames.LOOKUP_ENDPOINT, name, "looking up"
            + " endpoint " + name + " at " + peerAddress).await(new Spin(spinNanos()));
    }

    /**
     * Offers a node of this runtime to the runtime at {@code parentAddress}; returns the parent's runtime id. Fails
     * with a {@link PeerFailedException} whose cause says why the parent could not be reached, if it could not.
     */
    public String registerWith(final String parentAddress, final String nodeName) {
        final Peer parent;
        try {
            parent = peerOf(transport.connect(parentAddress, "", this, config.connectTimeout()));
        } catch (IllegalStateException e) {
            throw new PeerFailedException(parentAddress, e.getMessage(), e.getCause());
        }
        parent.registerNode(nodeName);
        return parent.link.peerRuntimeId();
    }

    /** Waits until a runtime registers a node called {@code name} with this one. */
    public NodeInfo awaitNode(final String name, final Duration timeout) {
        final long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (nodesChanged) {
            while (!nodes.containsKey(name)) {
                final long left = deadline - System.nanoTime();
                if (left <= 0) {
                    final String refused = transport.lastRefusal();
                    throw new TroupeException("No node called " + name + " registered within " + timeout.toMillis()
                        + " ms (registered: " + nodes.keySet() + ")" + (refused == null ? ""
                        : "; the last connection this runtime refused came from " + refused + ": a node JVM needs"
                        + " this runtime's secret (troupe.core.secret or troupe.core.secretFile) and Troupe version"));
                }
                try {
                    nodesChanged.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TroupeException("Interrupted while waiting for node " + name, e);
                }
            }
            return nodes.get(name);
        }
    }

    // --- Requests from peers (on whichever thread reads the link: anything slow goes to a virtual thread) ---

    /** A call from {@code from}, of {@code bytes} on the wire, for the object {@code objectId} of this runtime. */
    void dispatchCall(final Peer from, final long callId, final long objectId, final int method,
                      final Object[] args, final long bytes) {
        final Body body = runtime.body(objectId);
        if (body == null) {
            final TerminatedException gone = new TerminatedException("Active object " + objectId + " of runtime "
                + runtime.id() + " is terminated");
            gone.setStackTrace(new StackTraceElement[0]); // this runtime's dispatch: nothing for the caller
            if (callId != 0) {
                from.reply(callId, null, gone);
            } else { // the caller of a one-way call hears of it too
                from.oneWaySink().failOneWay("a one-way call on active object " + objectId + " of runtime "
                    + runtime.id(), gone);
            }
            return;
        }
        final MethodTable table = body.table();
        if (method < 0 || method >= table.size()) {
            if (callId != 0) {
                from.reply(callId, null, MethodTable.noSuchMethod(body.target().getClass(), method));
            }
            return;
        }
        final ReplySink reply = callId == 0 ? from.oneWaySink() : from.replySink(callId);
        final Request request = new Request(method, table.method(method), args, reply);
        // The method's own annotation decides, never the caller's flag: only an @Immediate method may run beside
        // the body's thread.
        if (CallModes.of(table.type())[method] == CallMode.IMMEDIATE) {
            from.runOnItsOwnThread(() -> body.serveNow(request));
        } else if (from.queuing(bytes) && !body.enqueue(request.whenLeaving(() -> from.unqueued(bytes)))
            && callId == 0) { // terminated since it was looked up: a one-way call's caller hears of it too
            reply.failOneWay(CallResults.describe(table.method(method), body.name()),
                new TerminatedException(body.name() + " is terminated"));
        }
    }

    void dispatchRequest(final Peer from, final byte kind, final long callId, final Object body) {
        switch (kind) {
            case Frames.CREATE -> from.runOnItsOwnThread(() -> {
                try {
                    final Object[] c = (Object[]) body;
                    from.reply(callId, runtime.newActive((String) c[0], (Object[]) c[2], (String) c[1]), null);
                } catch (RuntimeException e) {
                    from.reply(callId, null, e);
                }
            });
            case Frames.LOOKUP -> {
                final Object found = runtime.registered((String) body);
                from.reply(callId, found, found == null ? new TroupeException("No active object is registered as "
                    + body + " in runtime " + runtime.id()) : null);
            }
            case Frames.LOOKUP_ENDPOINT -> {
                final EndpointAddress found = endpoints.find((String) body);
                from.reply(callId, found, found == null ? new TroupeException("No endpoint called " + body
                    + " is open in runtime " + runtime.id()) : null);
            }
            case Frames.REGISTER_NODE -> {
                final String name = (String) body;
                final NodeInfo info = new NodeInfo(name, from.link.peerRuntimeId(), from.link.peerAddress());
                synchronized (nodesChanged) {
                    final NodeInfo held = nodes.get(name);
                    if (held != null && !held.runtimeId().equals(info.runtimeId()) && isLinked(held.runtimeId())) {
                        // A node's name stays with the runtime that offered it while that runtime is there.
                        LOG.warn("Runtime {} offered a node called {}, which runtime {} holds: refused",
                            from.describe(), printable(name), held.runtimeId());
                        return;
                    }
                    nodes.put(name, info);
                    nodesChanged.notifyAll();
                }
                LOG.debug("Node {} of runtime {} registered", printable(name), from.describe());
                for (final var l : nodeListeners) {
                    try {
                        l.accept(info);
                    } catch (RuntimeException e) { // a listener's bug must not cost the link
                        LOG.warn("A listener of node registrations failed on node {}", name, e);
                    }
                }
            }
            default -> throw new IllegalStateException("not a request: " + kind);
        }
    }

    /** A name a peer chose, fit for a log line: no control character (a newline would forge another line). */
    private static String printable(final String name) {
        return name.replaceAll("\\p{Cntrl}", "?");
    }

    /** Whether this runtime has an open link to runtime {@code runtimeId}. */
    private boolean isLinked(final String runtimeId) {
        final Peer p = peers.get(runtimeId);
        return p != null && p.isOpen();
    }

    void dispatchTerminate(final long objectId) {
        final Body body = runtime.body(objectId);
        if (body != null) {
            body.terminate();
        }
    }

    @Override
    public void close() {
        if (deadlines != null) {
            deadlines.shutdownNow();
        }
        transport.close();
    }
}
