package org.troupe.core;

import java.util.Objects;

/**
 * A place where active objects live: a named node of a runtime (one runtime per JVM). Obtained from
 * {@link TroupeRuntime#defaultNode()}, {@link TroupeRuntime#createNode(String)} or, for other JVMs, from deployment.
 */
public final class Node {
    private final TroupeRuntime runtime;
    private final String name;
    /** For a node of another JVM: its runtime's id and address; null for a node of this JVM. */
    private final String remoteRuntimeId;

    private final String remoteAddress;

    Node(final TroupeRuntime runtime, final String name) {
        this(runtime, name, null, null);
    }

    Node(final TroupeRuntime runtime, final String name, final String remoteRuntimeId, final String remoteAddress) {
        this.runtime = runtime;
        this.name = name;
        this.remoteRuntimeId = remoteRuntimeId;
        this.remoteAddress = remoteAddress;
    }

    public String name() {
        return name;
    }

    /** Whether the node is in this JVM. */
    public boolean isLocal() {
        return remoteRuntimeId == null;
    }

    /** The id of the runtime (the JVM) the node belongs to. */
    public String runtimeId() {
        return isLocal() ? runtime.id() : remoteRuntimeId;
    }

    /** Where the node's runtime listens ({@code host:port}); empty for a local runtime that does not listen. */
    public String address() {
        return isLocal() ? runtime.address() : remoteAddress;
    }

    /** {@code troupe://host:port/node}, or {@code troupe://<runtime id>/node} for a runtime that does not listen. */
    public String url() {
        final String where = address();
        return "troupe://" + (where.isEmpty() ? runtimeId() : where) + "/" + name;
    }

    TroupeRuntime runtime() {
        return runtime;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof Node n && n.runtimeId().equals(runtimeId()) && n.name.equals(name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(runtimeId(), name);
    }

    @Override
    public String toString() {
        return url();
    }
}
