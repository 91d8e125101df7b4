package org.troupe.apps.jem3d;

import java.util.ArrayList;
import java.util.List;

/**
 * Which node each block of a division goes to: at the start and whenever the nodes change (a loss, a replacement,
 * nodes that join), decided from the division and the nodes alone.
 *
 * @param nodes the nodes used, in buddy order: each block's checkpoint copy goes to the node after its own
 * @param homes each block's node, by block index
 * @param <N> what a node is: a {@link org.troupe.core.Node} in a run
 */
record NodePlan<N>(int[] division, List<N> nodes, List<N> homes) {
    NodePlan {
        nodes = List.copyOf(nodes);
        homes = List.copyOf(homes);
    }

    /** {@code division} on {@code nodes}: block i on node i modulo their number. */
    static <N> NodePlan<N> inTurn(final int[] division, final List<N> nodes) {
        int blocks = division[0] * division[1] * division[2];
        List<N> homes = new ArrayList<>();
        for (int b = 0; b < blocks; b++) {
            homes.add(nodes.get(b % nodes.size()));
        }
        return new NodePlan<>(division, nodes.subList(0, Math.min(blocks, nodes.size())), homes);
    }

    /** The division with the fewest border faces for at most {@code nodes.size()} blocks, on them in turn. */
    static <N> NodePlan<N> divided(final Mesh mesh, final List<N> nodes) {
        return inTurn(Jem3dRun.divisionFor(mesh, nodes.size()), nodes);
    }

    /**
     * This plan with {@code lost.get(i)} replaced by {@code replacements.get(i)} everywhere: the same division, every
     * other block where it was, the buddy order kept.
     */
    NodePlan<N> replacing(final List<N> lost, final List<N> replacements) {
        if (replacements.size() < lost.size()) {
            throw new IllegalArgumentException(lost.size() + " nodes lost, " + replacements.size() + " replacements");
        }
        List<N> newNodes = new ArrayList<>(nodes);
        List<N> newHomes = new ArrayList<>(homes);
        for (int i = 0; i < lost.size(); i++) {
            N gone = lost.get(i);
            N replacement = replacements.get(i);
            newNodes.replaceAll(n -> n.equals(gone) ? replacement : n);
            newHomes.replaceAll(n -> n.equals(gone) ? replacement : n);
        }
        return new NodePlan<>(division, newNodes, newHomes);
    }

    /** The node after {@code node} in buddy order, which holds the other copy of its blocks' checkpoints; null alone. */
    N buddyOf(final N node) {
        return nodes.size() < 2 ? null : nodes.get((nodes.indexOf(node) + 1) % nodes.size());
    }
}
