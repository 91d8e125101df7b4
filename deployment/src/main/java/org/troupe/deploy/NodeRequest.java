package org.troupe.deploy;

import java.time.Duration;
import java.util.List;
import org.troupe.core.Node;
import org.troupe.deploy.launch.Launch;

/**
 * More nodes asked of a running deployment ({@link VirtualNode#request}): the launch that brings them, and a way to
 * wait for them. They attach to the virtual node like the others, and its failures list what did not come.
 */
public final class NodeRequest {
    private final VirtualNode virtualNode;
    private final Launch launch;

    NodeRequest(final VirtualNode virtualNode, final Launch launch) {
        this.virtualNode = virtualNode;
        this.launch = launch;
    }

    /** The launch's label, e.g. {@code jem3d-3}: what its failures and logs are named by. */
    public String label() {
        return launch.label();
    }

    /** The nodes it brings when all of it starts: those asked for, or more when its chain offers them in bulk. */
    public int count() {
        return launch.expected();
    }

    /** Its nodes attached now (not those lost since). */
    public List<Node> nodes() {
        return virtualNode.nodesOf(launch);
    }

    /** Whether no more of its nodes can come: all came, or its launch failed or ended. */
    public boolean isSettled() {
        return !virtualNode.isPending(launch);
    }

    /**
     * Waits until all its nodes came, its launch can bring no more, the deployment closes, or {@code timeout}
     * passes; returns its nodes attached then, which may be fewer than {@link #count()}: the virtual node's
     * {@link VirtualNode#failures() failures} name this request's {@link #label()} with why.
     */
    public List<Node> await(final Duration timeout) {
        return virtualNode.awaitNodesOf(launch, timeout);
    }

    @Override
    public String toString() {
        return "request " + label() + " of " + virtualNode.name() + " for " + count() + " nodes";
    }
}
