package org.troupe.deploy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.troupe.core.Node;
import org.troupe.deploy.descriptor.VirtualNodeSpec;
import org.troupe.deploy.launch.Launch;

/**
 * The nodes a deployment gives one name the application uses. Nodes attach as their JVMs call home; an application
 * waits for the nodes it needs ({@link #waitForNodes}), or adapts to those that came, or reacts to each one
 * ({@link #onNodeAttached}). Nodes whose JVM is lost leave it.
 */
public final class VirtualNode {
    private final VirtualNodeSpec spec;
    private final List<Node> nodes = new ArrayList<>();
    private final Map<Launch, int[]> arrivals = new IdentityHashMap<>();
    private final List<Launch> failedLaunches = new ArrayList<>();
    private final List<DeploymentFailure> failures = new CopyOnWriteArrayList<>();
    private final List<Consumer<Node>> listeners = new CopyOnWriteArrayList<>();
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
        return spec.greedy() ? arrivals.keySet().stream().mapToInt(Launch::expected).sum() : spec.capacity();
    }

    /** The nodes attached now. */
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
        now.forEach(listener);
    }

    /** A line for a progress display: wanted, attached, failed, and what the unfinished launches are doing. */
    public synchronized String progress() {
        final StringBuilder b = new StringBuilder(name()).append(": ").append(nodes.size()).append('/')
            .append(wanted()).append(" nodes");
        final int missing = missing();
        if (missing > 0) {
            b.append(", ").append(missing).append(" failed");
        }
        for (final Map.Entry<Launch, int[]> e : arrivals.entrySet()) {
            if (e.getValue()[0] < e.getKey().expected() && !failedLaunches.contains(e.getKey())) {
                b.append(" [").append(e.getKey().label()).append(": ").append(e.getKey().status()).append(']');
            }
        }
        return b.toString();
    }

    private int missing() {
        return failures.stream().mapToInt(DeploymentFailure::nodesMissing).sum();
    }

    /** Whether no more nodes can come: each launch brought all its nodes or failed. */
    public synchronized boolean isSettled() {
        return settled();
    }

    private boolean settled() {
        for (final Map.Entry<Launch, int[]> e : arrivals.entrySet()) {
            if (e.getValue()[0] < e.getKey().expected() && !failedLaunches.contains(e.getKey())) {
                return false;
            }
        }
        return true;
    }

    synchronized void add(final Launch launch) {
        arrivals.put(launch, new int[1]);
    }

    /** A node of {@code launch} called home; returns whether it was taken (not beyond the capacity). */
    boolean attach(final Node node, final Launch launch) {
        synchronized (this) {
            arrivals.get(launch)[0]++;
            final boolean taken = !closed && (spec.greedy() || nodes.size() < spec.capacity());
            if (taken) {
                nodes.add(node);
            }
            notifyAll();
            if (!taken) {
                return false;
            }
        }
        listeners.forEach(l -> l.accept(node));
        return true;
    }

    synchronized boolean holdsNodeOf(final String runtimeId) {
        return nodes.stream().anyMatch(n -> n.runtimeId().equals(runtimeId));
    }

    /** {@code launch} will bring no more nodes; returns the failure recorded, or null if it had brought them all. */
    synchronized DeploymentFailure failed(final Launch launch, final String reason) {
        final int[] arrived = arrivals.get(launch);
        if (arrived == null || failedLaunches.contains(launch) || arrived[0] >= launch.expected()) {
            return null;
        }
        failedLaunches.add(launch);
        final DeploymentFailure f = new DeploymentFailure(name(), launch.label(), launch.describeChain(),
            launch.expected() - arrived[0], reason);
        failures.add(f);
        notifyAll();
        return f;
    }

    /** The JVM {@code runtimeId} of {@code launch} is gone: its nodes leave, and that is a failure. */
    synchronized void lost(final String runtimeId, final Launch launch, final String reason) {
        final int before = nodes.size();
        nodes.removeIf(n -> n.runtimeId().equals(runtimeId));
        if (nodes.size() < before) {
            failures.add(new DeploymentFailure(name(), launch.label(), launch.describeChain(), before - nodes.size(),
                "its JVM " + runtimeId + " was lost: " + reason));
        }
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
