package org.troupe.deploy;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.Node;
import org.troupe.core.Subscription;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.descriptor.VirtualNodeSpec;
import org.troupe.deploy.launch.Launch;
import org.troupe.monitor.Entity;

/**
 * The nodes a deployment gives one name the application uses. Nodes attach as their JVMs call home; an application
 * waits for the nodes it needs ({@link #waitForNodes}), or adapts to those that came, or reacts to each one
 * ({@link #onNodeAttached}). Nodes whose JVM is lost leave it ({@link #onNodeLost}); while the deployment runs, the
 * application may ask for more ({@link #request}).
 */
public final class VirtualNode {
    private static final Logger LOG = LoggerFactory.getLogger(VirtualNode.class);
    private final VirtualNodeSpec spec;
    private final List<Node> nodes = new ArrayList<>();
    /** Per launch: the nodes that came, and those reported as not coming. */
    private final Map<Launch, int[]> arrivals = new LinkedHashMap<>();
    /** The launch each attached node came from. */
    private final Map<Node, Launch> origins = new HashMap<>();
    /** The launches {@link #request} made: their nodes are taken beyond the capacity. */
    private final Set<Launch> requested = new HashSet<>();

    private final List<Launch> failedLaunches = new ArrayList<>();
    /** The launches something failed of: nodes that did not come, JVMs lost after they came. */
    private final Set<Launch> failing = new HashSet<>();

    private final List<DeploymentFailure> failures = new CopyOnWriteArrayList<>();
    private final List<Consumer<Node>> listeners = new ArrayList<>();
    private final List<Consumer<NodeLoss>> lossListeners = new CopyOnWriteArrayList<>();
    /** Starts a launch for {@link #request}: the deployment's, once it is built. */
    private BiFunction<VirtualNode, Integer, Launch> requester = (vn, n) -> {
        throw new IllegalStateException("virtual node " + vn.name() + " belongs to no deployment");
    };
    /** The launches added so far, and the JVMs they offer: what the next launch's labels and JVM names follow. */
    private int launchCount;

    private int jvmCount;
    private boolean closed;
    /** The JVMs lost after they came, by runtime id: their launch and why, for the console. */
    private final Map<String, Map.Entry<Launch, String>> lostJvms = new LinkedHashMap<>();
    /** The names of the JVMs seen so far, by runtime id: a lost one is still called by its name. */
    private final Map<String, String> jvmNames = new HashMap<>();

    VirtualNode(final VirtualNodeSpec spec) {
        this.spec = spec;
    }

    public String name() {
        return spec.name();
    }

    /** Whether it takes every node its mapping brings, instead of a fixed capacity. */
    public boolean greedy() {
        return spec.greedy();
    }

    /** The nodes it wants: its capacity, or for a greedy one all that its launches bring. */
    public synchronized int wanted() {
        return spec.greedy()
                ? arrivals.keySet().stream().mapToInt(Launch::expected).sum()
                : spec.capacity();
    }

    /** The nodes attached now, in the order they attached (not the descriptor's order, nor its JVMs' names). */
    public synchronized List<Node> nodes() {
        return List.copyOf(nodes);
    }

    public synchronized int size() {
        return nodes.size();
    }

    /** What went wrong so far: launches that failed, JVMs that were lost. */
    public List<DeploymentFailure> failures() {
        return List.copyOf(failures);
    }

    /**
     * Waits until {@code n} nodes are attached, no more can come (every launch brought its nodes or failed), the
     * deployment is closed, or {@code timeout} passes; returns the nodes attached then, which may be fewer than
     * {@code n}: an application that can adapt uses what came, and {@link #failures()} says why the rest did not.
     * They are in the order they attached, which is not the descriptor's: node JVMs start at once and call home
     * when ready, so {@code workers-3} may come first.
     */
    public synchronized List<Node> waitForNodes(final int n, final Duration timeout) {
        awaitUntil(() -> nodes.size() >= n || settled(), timeout);
        return List.copyOf(nodes);
    }

    /** Waits, holding this lock, until {@code done}, this closes, the timeout passes or the thread is interrupted. */
    private void awaitUntil(final BooleanSupplier done, final Duration timeout) {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean() && !closed) {
            final long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Calls {@code listener} with each node attached so far, then with each one that attaches later, on the thread
     * that registers it: keep it short, and hand longer work (creating active objects) to another thread.
     * {@link Subscription#close()} stops it.
     */
    public Subscription onNodeAttached(final Consumer<Node> listener) {
        final List<Node> now;
        synchronized (this) {
            listeners.add(listener);
            now = List.copyOf(nodes);
        }
        now.forEach(n -> deliver(listener, n));
        return () -> {
            synchronized (this) {
                listeners.remove(listener);
            }
        };
    }

    /**
     * Calls {@code listener} with each node that leaves because its JVM was lost (it died, froze past
     * {@code troupe.core.peerTimeoutMillis}, or its link was cut), with why, after it has left {@link #nodes()}; on
     * a thread of the runtime: keep it short. {@link Subscription#close()} stops it.
     */
    public Subscription onNodeLost(final Consumer<NodeLoss> listener) {
        lossListeners.add(listener);
        return () -> lossListeners.remove(listener);
    }

    private <E> void deliver(final Consumer<E> listener, final E event) {
        try {
            listener.accept(event);
        } catch (RuntimeException e) {
            LOG.warn("A listener of virtual node {} failed on {}", name(), event, e);
        }
    }

    /**
     * Asks the deployment for {@code n} more nodes while it runs: a new launch of one of this virtual node's
     * process chains (the one with the most nodes attached now, the first on a tie), changed to offer {@code n}
     * nodes: new JVMs on its host, over a new SSH session, or in a new batch job. Its nodes attach as the others
     * do, beyond the capacity if need be; what fails of it is recorded in {@link #failures()} as for the others,
     * and its JVMs stop when the deployment closes. The request returned waits for them.
     *
     * @throws IllegalArgumentException unless 1 <= n <= 1024
     * @throws IllegalStateException when the deployment has not started or has closed
     */
    public NodeRequest request(final int n) {
        if (n < 1 || n > MAX_REQUEST) {
            throw new IllegalArgumentException(
                    "virtual node " + name() + ": ask for 1 to " + MAX_REQUEST + " more nodes at a time, not " + n);
        }
        return new NodeRequest(this, requester.apply(this, n));
    }

    /** At most this many nodes per {@link #request}: a typing slip must not fork a host to death. */
    public static final int MAX_REQUEST = 1024;

    void requester(final BiFunction<VirtualNode, Integer, Launch> starter) {
        requester = starter;
    }

    /** A launch of the chain that brought the most nodes attached now (the first launch on a tie), or null. */
    synchronized Launch busiestLaunch() {
        Launch best = null;
        long bestCount = -1;
        for (final Launch l : arrivals.keySet()) {
            final long count = origins.values().stream()
                    .filter(o -> o.chain().equals(l.chain()))
                    .count();
            if (count > bestCount) {
                best = l;
                bestCount = count;
            }
        }
        return best;
    }

    /** The number the next launch's label takes, and the JVMs earlier launches offer (for its JVMs' names). */
    synchronized int[] nextLaunch() {
        return new int[] {launchCount + 1, jvmCount};
    }

    /** The nodes of {@code launch} attached now. */
    synchronized List<Node> nodesOf(final Launch launch) {
        return nodes.stream().filter(n -> origins.get(n) == launch).toList();
    }

    /** Whether {@code launch} may still bring nodes. */
    synchronized boolean isPending(final Launch launch) {
        return pending(launch);
    }

    /** Waits until {@code launch} brought all its nodes or can bring no more, this closes, or the timeout passes. */
    synchronized List<Node> awaitNodesOf(final Launch launch, final Duration timeout) {
        awaitUntil(() -> !pending(launch), timeout);
        return nodesOf(launch);
    }

    /** A line for a progress display: wanted, attached, failed, and what the unfinished launches are doing. */
    public synchronized String progress() {
        final StringBuilder b = new StringBuilder(name())
                .append(": ")
                .append(nodes.size())
                .append('/')
                .append(wanted())
                .append(" nodes");
        final int failed =
                failures.stream().mapToInt(DeploymentFailure::nodesMissing).sum();
        if (failed > 0) {
            b.append(", ").append(failed).append(" failed");
        }
        for (final Launch l : arrivals.keySet()) {
            if (pending(l)) {
                b.append(" [").append(l.label()).append(": ").append(l.status()).append(']');
            }
        }
        return b.toString();
    }

    /**
     * This virtual node as the console's tree shows it: its launches, their JVMs (registered, or lost with the
     * reason), and the JVMs' nodes.
     */
    synchronized Entity entity() {
        final List<Entity> launches = new ArrayList<>();
        for (final Launch l : arrivals.keySet()) {
            final Map<String, List<Node>> jvms = new LinkedHashMap<>();
            for (final Node n : nodes) {
                if (origins.get(n) == l) {
                    jvms.computeIfAbsent(n.runtimeId(), k -> new ArrayList<>()).add(n);
                }
            }
            final List<Entity> children = new ArrayList<>();
            jvms.forEach((id, ns) -> children.add(new Entity(
                    "jvm",
                    jvmName(l, ns, id),
                    "registered",
                    id,
                    id,
                    ns.stream()
                            .map(n -> Entity.of("node", n.name(), "registered", n.url()))
                            .toList())));
            lostJvms.forEach((id, lost) -> {
                if (lost.getKey() == l) {
                    children.add(
                            new Entity("jvm", jvmNames.getOrDefault(id, id), "lost", lost.getValue(), id, List.of()));
                }
            });
            for (final DeploymentFailure f : failures) {
                if (f.launch().equals(l.label()) && !f.reason().startsWith("its JVM ")) {
                    children.add(Entity.of("jvm", f.nodesMissing() + " node(s) missing", "failed", f.reason()));
                }
            }
            final int[] a = arrivals.get(l);
            final String state = pending(l)
                    ? "starting"
                    : !failing.contains(l) ? "registered" : jvms.isEmpty() ? "failed" : "degraded";
            launches.add(new Entity(
                    "launch",
                    l.label(),
                    state,
                    a[0] + "/" + l.expected() + " nodes, " + l.describeChain(),
                    "",
                    children));
        }
        return new Entity("virtual node", name(), nodes.size() + "/" + wanted() + " nodes", "", "", launches);
    }

    /**
     * The name of the JVM {@code runtimeId} of {@code launch} that holds {@code its} nodes ({@code workers-3}, as its
     * output and its nodes' names say), or its runtime id when they do not say; kept for when it is lost.
     */
    private String jvmName(final Launch launch, final List<Node> its, final String runtimeId) {
        final String name = its.isEmpty() ? null : launch.jvmNameOf(its.get(0).name());
        if (name == null) {
            return runtimeId;
        }
        jvmNames.put(runtimeId, name);
        return name;
    }

    /** Whether no more nodes can come: each launch brought all its nodes, or failed. */
    public synchronized boolean isSettled() {
        return settled();
    }

    private boolean settled() {
        for (final Launch l : arrivals.keySet()) {
            if (pending(l)) {
                return false;
            }
        }
        return true;
    }

    /** Whether more nodes may come from {@code launch}. */
    private boolean pending(final Launch launch) {
        final int[] a = arrivals.get(launch);
        return a[0] + a[1] < launch.expected() && !failedLaunches.contains(launch);
    }

    synchronized void add(final Launch launch) {
        arrivals.put(launch, new int[2]);
        launchCount++;
        jvmCount += Launch.jvmsOffered(launch.chain());
        countJvms(launch);
    }

    /**
     * The launch's JVMs as meters of this runtime, read when they are read: asked for, registered now, and lost
     * ({@code troupe.deploy.jvms}, tagged with the launch, the kind of its first step, and the state).
     */
    private void countJvms(final Launch launch) {
        TroupeRuntime.running().filter(r -> r.metrics().enabled()).ifPresent(r -> {
            final Tags tags = Tags.of(
                    "launch", launch.label(), "kind", launch.describeChain().replaceFirst(" .*", ""));
            final int asked = Launch.jvmsOffered(launch.chain());
            jvmGauge(r, tags.and("state", "asked"), () -> asked);
            jvmGauge(r, tags.and("state", "registered"), () -> {
                synchronized (this) {
                    return (int) nodes.stream()
                            .filter(n -> origins.get(n) == launch)
                            .map(Node::runtimeId)
                            .distinct()
                            .count();
                }
            });
            jvmGauge(r, tags.and("state", "lost"), () -> {
                synchronized (this) {
                    return (int) lostJvms.values().stream()
                            .filter(e -> e.getKey() == launch)
                            .count();
                }
            });
        });
    }

    private void jvmGauge(final TroupeRuntime r, final Tags tags, final IntSupplier count) {
        meters.add(Gauge.builder("troupe.deploy.jvms", count, IntSupplier::getAsInt)
                .tags(tags)
                .strongReference(true)
                .description("A launch's node JVMs: asked for, registered now, lost")
                .register(r.metrics().registry()));
    }

    /** Its launches' meters, removed when the deployment closes (another may name its launches alike). */
    private final List<Meter> meters = new ArrayList<>();

    /** Adds a launch {@link #request} made: its nodes are all taken. */
    synchronized void addRequested(final Launch launch) {
        add(launch);
        requested.add(launch);
    }

    /** A node of {@code launch} called home; returns whether it was taken (not beyond the capacity). */
    boolean attach(final Node node, final Launch launch) {
        final List<Consumer<Node>> toTell;
        synchronized (this) {
            arrivals.get(launch)[0]++;
            final boolean taken =
                    !closed && (spec.greedy() || requested.contains(launch) || nodes.size() < spec.capacity());
            notifyAll();
            if (!taken) {
                return false;
            }
            nodes.add(node);
            origins.put(node, launch);
            toTell = List.copyOf(listeners); // those added later see the node in their own snapshot
        }
        toTell.forEach(l -> deliver(l, node));
        return true;
    }

    synchronized boolean holdsNodeOf(final String runtimeId) {
        return nodes.stream().anyMatch(n -> n.runtimeId().equals(runtimeId));
    }

    /**
     * {@code launch} will bring no more nodes; records what is missing, unless it had brought them all. Returns
     * whether something of it failed, now or before (nodes that did not come, JVMs lost after they came): its logs
     * say why, and are kept.
     */
    synchronized boolean failed(final Launch launch, final String reason) {
        if (failedLaunches.contains(launch)) {
            return failing.contains(launch);
        }
        failedLaunches.add(launch);
        final int[] a = arrivals.get(launch);
        record(launch, launch.expected() - a[0] - a[1], reason);
        return failing.contains(launch);
    }

    /** {@code n} nodes of {@code launch} will not come (one of its JVMs failed), as far as some are still due. */
    synchronized void missing(final Launch launch, final int n, final String reason) {
        if (!failedLaunches.contains(launch)) {
            final int[] a = arrivals.get(launch);
            final int missing = Math.min(n, launch.expected() - a[0] - a[1]);
            a[1] += Math.max(0, missing);
            record(launch, missing, reason);
        }
    }

    private boolean record(final Launch launch, final int missing, final String reason) {
        if (missing <= 0) {
            return false;
        }
        final DeploymentFailure f =
                new DeploymentFailure(name(), launch.label(), launch.describeChain(), missing, reason);
        failures.add(f);
        failing.add(launch);
        LOG.warn("{}", f);
        notifyAll();
        return true;
    }

    /** The JVM {@code runtimeId} of {@code launch} is gone: its nodes leave, and that is a failure. */
    void lost(final String runtimeId, final Launch launch, final String reason) {
        final List<Node> gone;
        synchronized (this) {
            gone = nodes.stream().filter(n -> n.runtimeId().equals(runtimeId)).toList();
            nodes.removeAll(gone);
            gone.forEach(origins::remove);
            lostJvms.put(runtimeId, Map.entry(launch, reason));
            record(launch, gone.size(), "its JVM " + jvmName(launch, gone, runtimeId) + " was lost: " + reason);
        }
        for (final Node n : gone) {
            lossListeners.forEach(l -> deliver(l, new NodeLoss(n, reason)));
        }
    }

    synchronized void close() {
        TroupeRuntime.running().ifPresent(r -> meters.forEach(r.metrics().registry()::remove));
        meters.clear();
        closed = true;
        notifyAll();
    }

    @Override
    public String toString() {
        return progress();
    }
}
