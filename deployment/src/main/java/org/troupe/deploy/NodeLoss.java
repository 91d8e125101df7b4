package org.troupe.deploy;

import org.troupe.core.Node;

/**
 * A node that left its virtual node because its JVM was lost ({@link VirtualNode#onNodeLost}).
 *
 * @param reason why, as the runtime saw it: the link closed, the peer timed out, the JVM was released
 */
public record NodeLoss(Node node, String reason) {
    @Override
    public String toString() {
        return "node " + node.name() + " (JVM " + node.runtimeId() + ") lost: " + reason;
    }
}
