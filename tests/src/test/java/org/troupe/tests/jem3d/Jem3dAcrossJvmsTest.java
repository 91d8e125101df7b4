package org.troupe.tests.jem3d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.troupe.apps.jem3d.Division;
import org.troupe.apps.jem3d.Jem3dReport;
import org.troupe.apps.jem3d.Jem3dRun;
import org.troupe.apps.jem3d.Mesh;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;
import org.troupe.tests.NodeJvms;
import org.troupe.tests.deploy.DeploymentLeftovers;

/**
 * Jem3D divided among node JVMs of the local descriptor computes the sequential run's fields bit for bit: the
 * border values cross real connections, and each block is set up and stepped in another JVM.
 */
class Jem3dAcrossJvmsTest {
    private static final Mesh MESH = new Mesh(9, 8, 7);
    private static final int STEPS = 15;
    private static TroupeRuntime runtime;
    private static Deployment deployment;
    private static List<Node> nodes;
    private static Jem3dReport sequential;

    @BeforeAll
    static void start() {
        runtime = NodeJvms.startParent();
        sequential = Jem3dTesting.sequential(MESH, STEPS);
        deployment = Deployment.load(Jem3dTesting.LOCAL, Jem3dTesting.localVariables(3))
                .start();
        nodes = deployment.virtualNode(Jem3dRun.VIRTUAL_NODE).waitForNodes(3, Jem3dTesting.WAIT);
        assertEquals(3, nodes.size(), deployment.progress() + " " + deployment.failures());
        assertEquals(3, nodes.stream().map(Node::runtimeId).distinct().count(), "one node per JVM");
        for (Node n : nodes) {
            assertFalse(n.isLocal(), n + " is in another JVM");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (deployment != null) {
                String id = deployment.id();
                try {
                    assertEquals(List.of(), deployment.failures(), "no node JVM failed or was lost");
                } finally {
                    deployment.close();
                }
                DeploymentLeftovers.assertNothingLeft(id);
            }
        } finally {
            runtime.shutdown();
        }
    }

    static Stream<Arguments> divisions() {
        return Stream.of(
                Arguments.of(new int[] {2, 1, 1}, 2),
                Arguments.of(new int[] {2, 2, 1}, 3),
                Arguments.of(new int[] {1, 2, 3}, 3));
    }

    @ParameterizedTest(name = "division {0} on {1} node JVMs")
    @MethodSource("divisions")
    void aDividedRunOnNodeJvmsGivesTheSequentialFieldsBitForBit(final int[] division, final int nodeCount) {
        List<Node> use = nodes.subList(0, nodeCount);
        Jem3dReport divided = new Jem3dRun(Jem3dTesting.options(MESH, STEPS), new Jem3dRun.Listener() {})
                .keepFields()
                .run(new Jem3dRun.Placement(use, MESH, division, "test: " + Division.format(division)));
        assertEquals(nodeCount, divided.nodes());
        Jem3dTesting.assertSameRun(sequential, divided);
    }

    /**
     * Thousands of steps with blocks in three JVMs: the subdomains' reports reach the collector over three links,
     * each with its own delays, and their first border messages race their connection; a long run is where a
     * protocol that holds for a few steps can show a crack.
     */
    @Test
    void aLongRunAcrossThreeJvmsStaysInStep() {
        Mesh small = new Mesh(5, 5, 7);
        int steps = 3000;
        Jem3dReport reference = Jem3dTesting.sequential(small, steps);
        Jem3dReport divided = new Jem3dRun(Jem3dTesting.options(small, steps), new Jem3dRun.Listener() {})
                .keepFields()
                .run(new Jem3dRun.Placement(nodes, small, new int[] {1, 1, 6}, "test: long run"));
        Jem3dTesting.assertSameRun(reference, divided);
    }
}
