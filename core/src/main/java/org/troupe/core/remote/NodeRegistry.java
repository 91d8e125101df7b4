package org.troupe.core.remote;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.remote.Remoting.NodeInfo;

/**
 * The nodes other runtimes registered with this one, by name: a node JVM offers its node to its parent, which
 * waits for it to deploy there. {@link RequestDispatcher} records an offer on the thread that reads the offering
 * peer's link; a deployment waits in {@link #await} on its own thread; a runtime's nodes are forgotten when the
 * {@link PeerDirectory} loses its link (on the thread that saw the link end).
 */
final class NodeRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(NodeRegistry.class);

    private final Map<String, NodeInfo> nodes = new ConcurrentHashMap<>();
    /** Guards a name's change of holder, and wakes those waiting for a node. */
    private final Object changed = new Object();

    private final List<Consumer<NodeInfo>> listeners = new CopyOnWriteArrayList<>();
    /** Whether this runtime has an open link to a runtime: a node's name stays with a runtime that is there. */
    private final Predicate<String> isLinked;
    /** Where the last connection the transport refused came from, or null: why an awaited node may not come. */
    private final Supplier<String> lastRefusal;

    NodeRegistry(final Predicate<String> isLinked, final Supplier<String> lastRefusal) {
        this.isLinked = isLinked;
        this.lastRefusal = lastRefusal;
    }

    /**
     * Runtime {@code from} (described so as {@code fromDescribed}) offers {@code info}; refused, with a warning, if
     * another runtime that is still linked holds that name.
     */
    void offered(final NodeInfo info, final String fromDescribed) {
        final String name = info.name();
        synchronized (changed) {
            final NodeInfo held = nodes.get(name);
            if (held != null && !held.runtimeId().equals(info.runtimeId()) && isLinked.test(held.runtimeId())) {
                // A node's name stays with the runtime that offered it while that runtime is there.
                LOG.warn(
                        "Runtime {} offered a node called {}, which runtime {} holds: refused",
                        fromDescribed,
                        printable(name),
                        held.runtimeId());
                return;
            }
            nodes.put(name, info);
            changed.notifyAll();
        }
        LOG.debug("Node {} of runtime {} registered", printable(name), fromDescribed);
        for (final Consumer<NodeInfo> l : listeners) {
            try {
                l.accept(info);
            } catch (RuntimeException e) { // a listener's bug must not cost the link
                LOG.warn("A listener of node registrations failed on node {}", name, e);
            }
        }
    }

    /** Forgets the nodes of runtime {@code runtimeId}, whose link ended: their names are free again. */
    void forget(final String runtimeId) {
        nodes.values().removeIf(n -> n.runtimeId().equals(runtimeId));
    }

    /** Waits until a runtime registers a node called {@code name} with this one. */
    NodeInfo await(final String name, final Duration timeout) {
        final long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (changed) {
            while (!nodes.containsKey(name)) {
                final long left = deadline - System.nanoTime();
                if (left <= 0) {
                    final String refused = lastRefusal.get();
                    throw new TroupeException(
                            "No node called " + name + " registered within " + timeout.toMillis()
                                    + " ms (registered: " + nodes.keySet() + ")"
                                    + (refused == null
                                            ? ""
                                            : "; the last connection this runtime refused came from " + refused
                                                    + ": a node JVM needs"
                                                    + " this runtime's secret (troupe.core.secret or troupe.core.secretFile) and Troupe version"));
                }
                try {
                    changed.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TroupeException("Interrupted while waiting for node " + name, e);
                }
            }
            return nodes.get(name);
        }
    }

    /**
     * Calls {@code listener} on the link's reader thread whenever a runtime registers a node with this one; running
     * the returned action removes it.
     */
    Runnable onRegistered(final Consumer<NodeInfo> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /** A name a peer chose, fit for a log line: no control character (a newline would forge another line). */
    static String printable(final String name) {
        return name.replaceAll("\\p{Cntrl}", "?");
    }
}
