package org.troupe.core;

import java.util.Objects;

/**
 * A place where active objects live: a named node of a runtime (one runtime per JVM). Obtained from
 * {@link TroupeRuntime#defaultNode()}, {@link TroupeRuntime#createNode(String)} or, for other JVMs, from deployment.
 */
public final class Node {
    private final TroupeRuntime runtime;
    private final String name;

    Node(final TroupeRuntime runtime, final String name) {
        this.runtime = runtime;
        this.name = name;
    }

    public String name() {
        return name;
    }

    /** The id of the runtime (the JVM) the node belongs to. */
    public String runtimeId() {
        return runtime.id();
    }

    /** {@code troupe://<runtime>/<node>}. */
    public String url() {
        return "troupe://" + runtime.id() + "/" + name;
    }

    TroupeRuntime runtime() {
        return runtime;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof Node n && n.runtime == runtime && n.name.equals(name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(runtime.id(), name);
    }

    @Override
    public String toString() {
        return url();
    }
}
