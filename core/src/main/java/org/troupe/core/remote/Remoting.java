package org.troupe.core.remote;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.core.exceptions.TerminatedException;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.instrument.RuntimeMeters;
import org.troupe.core.internal.Body;
import org.troupe.core.internal.FutureState;
import org.troupe.core.internal.LocalRuntime;
import org.troupe.core.internal.RuntimeSettings;
import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.Outcome;
import org.troupe.core.spi.Spin;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;
import org.troupe.core.transport.Transport;
import org.troupe.serialization.SerializationConfig;

/**
 * The runtime's dealings with other JVMs, as the runtime and the proxies see them: the one object a runtime holds
 * for its remote side. It puts together the {@link PeerDirectory} (the runtimes linked to this one), the
 * {@link NodeRegistry} (the nodes they registered here) and the {@link RequestDispatcher} (what they ask of this
 * runtime); it makes this runtime's own requests of peers (create, look up, register a node), and gives proxies and
 * {@link ProxyForm} what they need. Not for applications: they use {@code ActiveObjects} and {@code TroupeRuntime}.
 * The runtime calls it on application threads; the transport calls its {@link LinkHandler} methods on the thread
 * that reads a link; proxies call it on the caller's thread.
 */
public final class Remoting implements LinkHandler, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Remoting.class);

    /** A node of another runtime that registered with this one. */
    public record NodeInfo(String name, String runtimeId, String address) {}

    private final LocalRuntime runtime;
    private final RuntimeSettings config;
    private final Transport transport;
    private final SerializationConfig connectionConfig;
    private final EndpointTable endpoints;
    private final PeerDirectory peers;
    private final NodeRegistry nodes;
    private final RequestDispatcher dispatcher;
    private final CallDeadlines deadlines;
    private final AtomicLong futureIds = new AtomicLong(1);
    private final LongAdder bytesSent = new LongAdder();

    public Remoting(final LocalRuntime runtime, final Transport transport, final EndpointTable endpoints) {
        this.runtime = runtime;
        this.endpoints = endpoints;
        this.config = runtime.settings();
        this.transport = transport;
        this.connectionConfig = runtime.wireConfig();
        this.peers = new PeerDirectory(transport, this, config, link -> new Peer(link, this));
        this.nodes = new NodeRegistry(peers::isLinked, transport::lastRefusal);
        this.dispatcher = new RequestDispatcher(runtime, endpoints, nodes);
        // A lost runtime's node names are free again, then its endpoints hear of it, then the runtime's listeners.
        peers.onPeerLost((runtimeId, reason) -> nodes.forget(runtimeId));
        peers.onPeerLost(endpoints::runtimeLost);
        peers.onPeerLost((runtimeId, reason) -> runtime.meters().forgetLink(runtimeId));
        this.deadlines = new CallDeadlines(config.callTimeout().toNanos(), peers::expireCalls);
    }

    // --- What the peers, the proxies and the form need ---

    String runtimeId() {
        return runtime.id();
    }

    /** Where this runtime listens, or "" if it does not. */
    public String address() {
        return peers.address();
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

    /** Where the frames peers send go once read. */
    RequestDispatcher dispatcher() {
        return dispatcher;
    }

    RuntimeMeters meters() {
        return runtime.meters();
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
    public String listen(final String bindHost) {
        return peers.listen(bindHost);
    }

    /** The peer with that runtime id, linked anew through {@code peerAddress} if there is no open link. */
    Peer peer(final String runtimeId, final String peerAddress) {
        return peers.peer(runtimeId, peerAddress);
    }

    /** Links to the runtime listening at {@code peerAddress} (if not linked yet); returns its runtime id. */
    public String link(final String peerAddress) {
        return peers.connected(peerAddress).link.peerRuntimeId();
    }

    @Override
    public void opened(final Link link) {
        peers.peerOf(link);
    }

    @Override
    public void received(final Link link, final byte[] frame, final int offset, final int length) {
        try {
            peers.peerOf(link).received(frame, offset, length);
        } catch (RuntimeException e) {
            LOG.warn("Dropping the link to {}: a frame could not be read ({})", link.peerRuntimeId(), e.toString());
            link.close("unreadable frame: " + e.getMessage());
        }
    }

    @Override
    public void received(final Link link, final ByteBuffer frame) {
        try {
            peers.peerOf(link).received(frame);
        } catch (RuntimeException e) {
            LOG.warn("Dropping the link to {}: a frame could not be read ({})", link.peerRuntimeId(), e.toString());
            link.close("unreadable frame: " + e.getMessage());
        }
    }

    @Override
    public void closed(final Link link, final String reason) {
        peers.closed(link, reason);
    }

    /** Calls {@code listener(runtimeId, reason)} whenever a link to a peer ends; the returned action removes it. */
    public Runnable onPeerLost(final BiConsumer<String, String> listener) {
        return peers.onPeerLost(listener);
    }

    /**
     * Calls {@code listener} on the link's reader thread whenever a runtime registers a node with this one; running
     * the returned action removes it.
     */
    public Runnable onNodeRegistered(final Consumer<NodeInfo> listener) {
        return nodes.onRegistered(listener);
    }

    /** Closes the link to runtime {@code runtimeId}, if any; a node JVM whose parent link closes exits. */
    public void disconnect(final String runtimeId, final String reason) {
        peers.disconnect(runtimeId, reason);
    }

    // --- Requests to peers ---

    /** Creates an active object on a node of another runtime and returns its proxy. */
    public Object create(
            final String runtimeId,
            final String peerAddress,
            final String nodeName,
            final Class<?> type,
            final Object[] args) {
        final FutureState f = peer(runtimeId, peerAddress)
                .request(
                        Frames.CREATE,
                        new Object[] {type.getName(), nodeName, args},
                        "creating a " + type.getName() + " on node " + nodeName);
        return f.await(new Spin(spinNanos()));
    }

    /** The active object registered as {@code name} in the runtime at {@code peerAddress}. */
    public Object lookup(final String peerAddress, final String name) {
        return peers.connected(peerAddress)
                .request(Frames.LOOKUP, name, "looking up " + name + " at " + peerAddress)
                .await(new Spin(spinNanos()));
    }

    /**
     * The open link to the endpoint's runtime, made now if there never was one. Frames an endpoint sends must not
     * be lost or reordered unseen, so once a runtime's link ended it counts as lost, whatever links others make.
     */
    Peer endpointPeer(final EndpointAddress to) {
        if (endpoints.isLost(to.runtimeId())) {
            throw new PeerFailedException(
                    to.runtimeId(), "its link was lost, and endpoint frames are not sent over" + " a new one");
        }
        return peer(to.runtimeId(), to.runtimeAddress());
    }

    /** The address of the endpoint called {@code name} in the runtime at {@code peerAddress}. */
    EndpointAddress lookupEndpoint(final String peerAddress, final String name) {
        return (EndpointAddress) peers.connected(peerAddress)
                .request(Frames.LOOKUP_ENDPOINT, name, "looking up" + " endpoint " + name + " at " + peerAddress)
                .await(new Spin(spinNanos()));
    }

    /**
     * Offers a node of this runtime to the runtime at {@code parentAddress}; returns the parent's runtime id. Fails
     * with a {@link PeerFailedException} whose cause says why the parent could not be reached, if it could not.
     */
    public String registerWith(final String parentAddress, final String nodeName) {
        final Peer parent = peers.dialParent(parentAddress);
        parent.registerNode(nodeName);
        return parent.link.peerRuntimeId();
    }

    /** Waits until a runtime registers a node called {@code name} with this one. */
    public NodeInfo awaitNode(final String name, final Duration timeout) {
        return nodes.await(name, timeout);
    }

    @Override
    public void close() {
        deadlines.close();
        transport.close();
    }
}
