package org.troupe.core;

import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.instrument.MetricsReporter;
import org.troupe.core.instrument.ReportCollector;
import org.troupe.core.internal.ManyCalls;
import org.troupe.core.internal.RuntimeCore;
import org.troupe.core.internal.TroupeUrl;
import org.troupe.core.metrics.Metrics;
import org.troupe.core.proxy.GeneratedProxies;
import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.remote.EndpointTable;
import org.troupe.core.remote.RemoteCalls;
import org.troupe.core.remote.RemoteFailure;
import org.troupe.core.remote.RemoteStubHandler;
import org.troupe.core.remote.Remoting;
import org.troupe.core.spi.Calls;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.Endpoints;
import org.troupe.core.spi.Proxies;
import org.troupe.core.spi.Spin;
import org.troupe.core.spi.WireClasses;
import org.troupe.core.transport.ReceiveBudget;
import org.troupe.core.transport.TransportSettings;
import org.troupe.core.transport.Transports;

/**
 * The Troupe runtime of this JVM: its nodes and the active objects that live on them. There is one per JVM,
 * started on first use from the Troupe settings ({@link #get()}) or explicitly ({@link #start(CoreConfig)}), and
 * ended by {@link #shutdown()}.
 */
public final class TroupeRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TroupeRuntime.class);
    public static final String DEFAULT_NODE = "default";

    private static final Object CURRENT_LOCK = new Object();
    private static TroupeRuntime current;
    /** The layers' calls on many objects: they hold no state, so one serves the JVM, runtime or none. */
    private static final Calls CALLS = new ManyCalls(new RemoteCalls());

    private final String id;
    private final CoreConfig config;
    /** Its nodes, the bodies of its active objects and their names: the runtime behind this API. */
    private final RuntimeCore core;

    private Remoting remoting;
    /** The interface it listens on, once it does. */
    private String boundTo = "";
    /** Where layers such as the MPI facade send raw frames; an endpoint's address is reachable, so it listens. */
    private final EndpointTable endpoints;
    /** Sends this runtime's meters to its launcher's, once asked to. */
    private MetricsReporter reporter;

    private TroupeRuntime(final CoreConfig config) {
        try {
            Transports.check(config.transport()); // said at start, not at the first remote call
        } catch (IllegalArgumentException e) {
            throw new TroupeException(e.getMessage(), e);
        }
        this.id = "rt-" + ProcessHandle.current().pid() + "-"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        this.config = config;
        Spin.backOffWhenCrowded(config.waitBackoff()); // for every runtime, started or made from the settings
        ReceiveBudget.limit(config.maxReceivingBytes());
        this.core = new RuntimeCore(
                id,
                config.runtimeSettings(),
                WireClasses.addTo(config.serialization(), RemoteFailure.class, EndpointAddress.class),
                DEFAULT_NODE,
                this::address);
        this.endpoints =
                new EndpointTable(id, this::remoting, () -> config.transport().equals(Transports.NONE) ? "" : listen());
    }

    /** This JVM's runtime, started from the Troupe settings if none is running. */
    public static TroupeRuntime get() {
        synchronized (CURRENT_LOCK) {
            if (current == null) {
                current = new TroupeRuntime(CoreConfig.fromSettings());
                LOG.debug("Started runtime {} from the settings", current.id);
            }
            return current;
        }
    }

    /** This JVM's runtime if one is running; starts none (for code that only adds to a running one's metrics). */
    public static Optional<TroupeRuntime> running() {
        synchronized (CURRENT_LOCK) {
            return Optional.ofNullable(current);
        }
    }

    /**
     * Calls on many active objects, and the outcomes behind futures, for the layers built on the core (groups,
     * collectives). Starts no runtime.
     */
    public static Calls calls() {
        return CALLS;
    }

    /** Generated proxies whose calls go to a handler, for the layers built on the core. Starts no runtime. */
    public static Proxies proxies() {
        return GeneratedProxies.INSTANCE;
    }

    /**
     * How long waits spin in this JVM: the running runtime's {@code troupe.core.spinMicros}, or the settings' when
     * none runs. Starts no runtime: a group made before one runs (or after one ended) takes it from here.
     */
    public static Duration spinSetting() {
        synchronized (CURRENT_LOCK) {
            if (current != null) {
                return current.config().spin();
            }
        }
        return CoreConfig.fromSettings().spin();
    }

    /** Starts this JVM's runtime with {@code config}; fails if one is running already. */
    public static TroupeRuntime start(final CoreConfig config) {
        synchronized (CURRENT_LOCK) {
            if (current != null) {
                throw new TroupeException("A Troupe runtime (" + current.id + ") is already running in this JVM;"
                        + " call shutdown() on it first");
            }
            current = new TroupeRuntime(config);
            return current;
        }
    }

    /** This runtime's id: {@code rt-<pid>-<random>}, the pid being its JVM's on its host ({@link #pidOf}). */
    public String id() {
        return id;
    }

    /** The pid, on its host, of the JVM whose runtime has the id {@code runtimeId}; -1 if it is not a runtime id. */
    public static long pidOf(final String runtimeId) {
        final String[] parts = runtimeId.split("-", 3);
        return parts.length == 3 && parts[0].equals("rt") && parts[1].matches("[0-9]{1,18}")
                ? Long.parseLong(parts[1])
                : -1;
    }

    public CoreConfig config() {
        return config;
    }

    /** The runtime behind this API: what the remote layer may do with it, on behalf of the runtimes linked to it. */
    RuntimeCore core() {
        return core;
    }

    // --- Other JVMs ---

    /** The remote side of this runtime, created on first use; fails if the configuration forbids other JVMs. */
    synchronized Remoting remoting() {
        checkRunning();
        if (remoting == null) {
            if (config.transport().equals(Transports.NONE)) {
                throw new TroupeException("This runtime reaches no other JVM: " + CoreConfig.TRANSPORT_PROP_NAME
                        + "=local. Set it to auto (or tcp) to use nodes of other JVMs");
            }
            final TransportSettings settings = new TransportSettings(
                    config.bindAddress(),
                    config.advertiseAddress(),
                    config.port(),
                    config.heartbeat(),
                    config.peerTimeout(),
                    config.serialization().maxMessageBytes(),
                    config.secret(),
                    config.authenticateFrames(),
                    config.shmDirectory(),
                    config.shmRingBytes());
            remoting = new Remoting(core, Transports.create(config.transport(), id, settings), endpoints);
        }
        return remoting;
    }

    /** Starts listening for other runtimes (if not yet) and returns the {@code host:port} they dial. */
    public String listen() {
        return listen(config.bindAddress(), false);
    }

    /**
     * Starts listening for other runtimes on the interface {@code bindAddress} (an address of this host, or
     * {@code 0.0.0.0} or {@code ::} for all), in place of {@code troupe.core.bindAddress}, and returns the
     * {@code host:port} they dial: what a deployment does when its node JVMs run on other hosts and nobody chose
     * the bind address ({@link CoreConfig#bindAddressChosen()}).
     *
     * @throws IllegalStateException if this runtime listens already, on another interface ({@link #bindAddress()})
     */
    public String listen(final String bindAddress) {
        return listen(bindAddress, true);
    }

    private synchronized String listen(final String bindAddress, final boolean asked) {
        final Remoting r = remoting();
        if (boundTo.isEmpty()) {
            final String at = asked ? r.listen(bindAddress) : r.listen();
            boundTo = bindAddress;
            // A runtime that listens may be a launcher: its node JVMs send their meters here.
            ReportCollector.open(core.meters(), endpoints, config.metricsMaxReportBytes());
            return at;
        }
        if (asked && !boundTo.equals(bindAddress)) {
            throw new IllegalStateException("Runtime " + id + " listens already on " + boundTo + " ("
                    + r.address() + "), not " + bindAddress + ": it listens on one interface, chosen before it first"
                    + " listens");
        }
        return r.listen();
    }

    /** The interface this runtime listens on ({@code 0.0.0.0} or {@code ::}: all), or "" if it does not listen. */
    public synchronized String bindAddress() {
        return boundTo;
    }

    /** The endpoints of this runtime, for the layers built on the core (the MPI facade): raw frames, no codec. */
    public Endpoints endpoints() {
        checkRunning();
        return endpoints;
    }

    /** What this runtime measures, and the latest metrics of the runtimes that report to it. */
    public Metrics metrics() {
        return core.meters();
    }

    /**
     * Sends this runtime's meters, every {@code troupe.metrics.reportMillis}, to the runtime listening at
     * {@code parentAddress} ({@code host:port}: the launcher that started this JVM), which keeps the latest in its
     * {@link Metrics#reports()}. Nothing is sent when metrics are off here, and sending stops when that runtime is
     * lost or keeps none; a second call changes nothing.
     */
    public synchronized void reportMetricsTo(final String parentAddress) {
        checkRunning();
        if (reporter == null) {
            reporter = MetricsReporter.start(
                    core.meters(), endpoints, parentAddress, config.metricsReport(), config.metricsMaxReportBytes());
        }
    }

    /** Bytes of the frames this runtime has sent to other runtimes so far. */
    public long bytesSent() {
        final Remoting r;
        synchronized (this) {
            r = remoting;
        }
        return r == null ? 0 : r.bytesSent();
    }

    /** Where this runtime listens, or "" if it does not. */
    public String address() {
        final Remoting r;
        synchronized (this) {
            r = remoting;
        }
        return r == null ? "" : r.address();
    }

    /** A node of another runtime, from its URL {@code troupe://host:port/node}; links to that runtime now. */
    public Node connect(final String nodeUrl) {
        final TroupeUrl url = TroupeUrl.parse(nodeUrl, "node");
        return new Node(this, url.name(), remoting().link(url.address()), url.address());
    }

    /** Waits until a JVM registers a node called {@code name} with this runtime (started by deployment). */
    public Node awaitNode(final String name, final Duration timeout) {
        final Remoting.NodeInfo info = remoting().awaitNode(name, timeout);
        return new Node(this, info.name(), info.runtimeId(), info.address());
    }

    /**
     * Calls {@code listener} with each node another JVM registers with this runtime from now on (deployment's
     * node JVMs calling home). It runs on the thread reading that JVM's link: keep it short. Running the returned
     * action removes the listener.
     */
    public Runnable onNodeRegistered(final Consumer<Node> listener) {
        return remoting()
                .onNodeRegistered(
                        info -> listener.accept(new Node(this, info.name(), info.runtimeId(), info.address())));
    }

    /** Calls {@code listener(runtimeId, reason)} whenever the link to another runtime ends; see onNodeRegistered. */
    public Runnable onRuntimeLost(final BiConsumer<String, String> listener) {
        return remoting().onPeerLost(listener);
    }

    /** Closes the link to runtime {@code runtimeId}; a node JVM this runtime deployed exits when that happens. */
    public void release(final String runtimeId, final String reason) {
        remoting().disconnect(runtimeId, reason);
    }

    /** Offers this runtime's node {@code nodeName} to the runtime at {@code parentAddress} (a node JVM's start). */
    String offerNode(final String parentAddress, final String nodeName) {
        listen();
        return remoting().registerWith(parentAddress, nodeName);
    }

    public Node defaultNode() {
        return new Node(this, DEFAULT_NODE);
    }

    /** Creates a node of this runtime; names are unique within it. */
    public Node createNode(final String name) {
        core.addNode(name);
        return new Node(this, name);
    }

    public List<Node> nodes() {
        return core.nodeNames().stream().map(n -> new Node(this, n)).toList();
    }

    /** Active objects alive in this runtime. */
    public int activeObjectCount() {
        return core.activeObjectCount();
    }

    // --- Active objects (reached through ActiveObjects) ---

    <T> T newActive(final Class<T> type, final Object[] args, final Node node) {
        core.checkCanActivate(type);
        if (node != null && !node.isLocal() && node.runtime() == this) {
            return type.cast(remoting()
                    .create(node.runtimeId(), node.address(), node.name(), type, args == null ? new Object[0] : args));
        }
        checkNode(node);
        return core.newActive(type, args, node.name());
    }

    <T> T turnActive(final T object, final Node node) {
        checkRunning();
        checkNode(node);
        return core.turnActive(object, node.name());
    }

    private void checkNode(final Node node) {
        if (node == null || node.runtime() != this || !node.isLocal() || !core.hasNode(node.name())) {
            throw new IllegalArgumentException("Node " + node + " does not belong to runtime " + id);
        }
    }

    private void checkRunning() {
        core.checkRunning();
    }

    void register(final Object active, final String name) {
        core.register(active, name);
    }

    <T> T lookup(final Class<T> type, final String name) {
        if (TroupeUrl.isUrl(name)) {
            final TroupeUrl url = TroupeUrl.parse(name, "name");
            final Object remote = remoting().lookup(url.address(), url.name());
            if (!type.isInstance(remote)) {
                throw new TroupeException(name + " is not a " + type.getName() + " but " + remote);
            }
            return type.cast(remote);
        }
        return core.lookup(type, name);
    }

    /** Ends an active object, here or in another JVM. */
    static void terminateAny(final Object active) {
        if (ProxyGenerator.handlerOf(active) instanceof RemoteStubHandler r) {
            r.terminate();
            return;
        }
        RuntimeCore.bodyOf(active).terminate();
    }

    /** The proxy of the active object whose own thread calls this. */
    <T> T self(final Class<T> type) {
        final Object proxy = RuntimeCore.currentActiveObject();
        if (proxy == null) {
            throw new IllegalStateException("self() is for the code of an active object, run by its own thread;"
                    + " this is thread " + Thread.currentThread());
        }
        return type.cast(proxy);
    }

    /** A node of the JVM where {@code active} lives: its runtime's default node. */
    Node nodeBeside(final Object active) {
        if (ProxyGenerator.handlerOf(active) instanceof RemoteStubHandler r) {
            return r.runtimeId().equals(id) ? defaultNode() : new Node(this, DEFAULT_NODE, r.runtimeId(), r.address());
        }
        RuntimeCore.bodyOf(active);
        return defaultNode();
    }

    void terminate(final Object active) {
        core.terminate(active);
    }

    /** Terminates every active object of this runtime, waits for them to end, and frees the JVM's slot. */
    public void shutdown() {
        synchronized (CURRENT_LOCK) {
            if (!core.stop()) {
                return;
            }
            if (current == this) {
                current = null;
                Spin.backOffWhenCrowded(true); // the default again, for waits outside a runtime (MPI threads jobs)
            }
        }
        core.terminateAll();
        final Remoting r;
        final MetricsReporter m;
        synchronized (this) {
            r = remoting;
            m = reporter;
        }
        if (m != null) {
            m.close();
        }
        if (r != null) {
            r.close();
        }
        core.meters().close();
        LOG.debug("Runtime {} shut down", id);
    }

    @Override
    public void close() {
        shutdown();
    }

    @Override
    public String toString() {
        return "TroupeRuntime[" + id + ", " + core.nodeNames().size() + " nodes, " + core.activeObjectCount()
                + " active objects]";
    }
}
