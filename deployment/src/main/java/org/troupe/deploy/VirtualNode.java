package org.troupe.deploy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.Node;
import org.troupe.deploy.descriptor.VirtualNodeSpec;
import org.troupe.deploy.launch.Launch;

/**
 * The nodes a deployment gives one name the application uses. Nodes attach as their JVMs call home; an application
 * waits for the nodes it needs ({@link #waitForNodes}), or adapts to those that came, or reacts to each one
 * ({@link #onNodeAttached}). Nodes whose JVM is lost leave it.
 */
public final class VirtualNode {
    private static final Logger LOG = LoggerFactory.getLogger(VirtualNode.class);
    private final VirtualNodeSpec spec;
    private final List<Node> nodes = new ArrayList<>();
    /** Per launch: the nodes that came, and those reported as not coming. */
    private final Map<Launch, int[]> arrivals = new LinkedHashMap<>();

    private final List<Launch> failedLaunches = new ArrayList<>();
    /** The launches something failed of: nodes that did not come, JVMs lost after they came. */
    private final Set<Launch> failing = new HashSet<>();

    private final List<DeploymentFailure> failures = new CopyOnWriteArrayList<>();
    private final List<Consumer<Node>> listeners = new ArrayList<>();
    private boolean closed;

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
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (nodes.size() < n && !settled() && !closed) {
            final long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return List.copyOf(nodes);
    }

    /**
     * Calls {@code listener} with each node attached so far, then with each one that attaches later, on the thread
     * that registers it: keep it short, and hand longer work (creating active objects) to another thread.
     */
    public void onNodeAttached(final Consumer<Node> listener) {
        final List<Node> now;
        synchronized (this) {
            listeners.add(listener);
            now = List.copyOf(nodes);
        }
        now.forEach(n -> deliver(listener, n));
    }

    private void deliver(final Consumer<Node> listener, final Node node) {
        try {
            listener.accept(node);
        } catch (RuntimeException e) {
            LOG.warn("A listener of virtual node {} failed on node {}", name(), node, e);
        }
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
    }

    /** A node of {@code launch} called home; returns whether it was taken (not beyond the capacity). */
    boolean attach(final Node node, final Launch launch) {
        final List<Consumer<Node>> toTell;
        synchronized (this) {
            arrivals.get(launch)[0]++;
            final boolean taken = !closed && (spec.greedy() || nodes.size() < spec.capacity());
            notifyAll();
            if (!taken) {
                return false;
            }
            nodes.add(node);
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
    synchronized void lost(final String runtimeId, final Launch launch, final String reason) {
        final int before = nodes.size();
        nodes.removeIf(n -> n.runtimeId().equals(runtimeId));
        record(launch, before - nodes.size(), "its JVM " + runtimeId + " was lost: " + reason);
    }

    synchronized void close() {
        closed = true;
        notifyAll();
    }

    @Override
    public String toString() {
        return progress();
    }
}
