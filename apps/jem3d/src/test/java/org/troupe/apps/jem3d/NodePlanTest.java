package org.troupe.apps.jem3d;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Where blocks go when the nodes change: the plans a run follows after a loss, or when nodes join. */
class NodePlanTest {
    private static final Mesh MESH = new Mesh(41, 41, 41);

    @Test
    void blocksGoToTheNodesInTurnAndEachNodesBuddyIsTheNext() {
        NodePlan<String> plan = NodePlan.inTurn(new int[] {2, 2, 1}, List.of("a", "b", "c"));
        assertEquals(List.of("a", "b", "c", "a"), plan.homes());
        assertEquals("b", plan.buddyOf("a"));
        assertEquals("a", plan.buddyOf("c"), "the last node's buddy is the first");
        assertNull(NodePlan.inTurn(new int[] {1, 1, 1}, List.of("a")).buddyOf("a"), "a node alone has none");
        assertEquals(
                List.of("a", "b"),
                NodePlan.inTurn(new int[] {2, 1, 1}, List.of("a", "b", "c")).nodes(),
                "a node without a block is not used");
    }

    @Test
    void aReplacementTakesTheLostNodesBlocksAndPlaceInTheBuddyOrder() {
        NodePlan<String> plan = NodePlan.inTurn(new int[] {2, 2, 1}, List.of("a", "b", "c"));
        NodePlan<String> replaced = plan.replacing(List.of("b"), List.of("r"));
        assertArrayEquals(new int[] {2, 2, 1}, replaced.division(), "the division is kept");
        assertEquals(List.of("a", "r", "c", "a"), replaced.homes(), "every other block stays where it was");
        assertEquals(List.of("a", "r", "c"), replaced.nodes());
        assertEquals("r", replaced.buddyOf("a"));
        assertThrows(IllegalArgumentException.class, () -> plan.replacing(List.of("a", "b"), List.of("r")));
    }

    @Test
    void withoutReplacementsTheMeshIsDividedAfreshForTheNodesLeft() {
        NodePlan<String> three = NodePlan.divided(MESH, List.of("a", "b", "c"));
        assertArrayEquals(new int[] {1, 1, 3}, three.division());
        NodePlan<String> two = NodePlan.divided(MESH, List.of("a", "c"));
        assertArrayEquals(new int[] {1, 1, 2}, two.division(), "the fewest border faces for 2");
        assertEquals(List.of("a", "c"), two.homes());
        // a mesh too coarse for the nodes left is divided as finely as it can be
        NodePlan<String> coarse = NodePlan.divided(new Mesh(2, 2, 3), List.of("a", "b", "c"));
        assertArrayEquals(new int[] {1, 1, 2}, coarse.division());
        assertEquals(List.of("a", "b"), coarse.nodes());
    }
}
