package org.troupe.tests.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.apps.jem3d.Adapt;
import org.troupe.apps.jem3d.Jem3dOptions;
import org.troupe.apps.jem3d.Jem3dReport;
import org.troupe.apps.jem3d.Jem3dRun;
import org.troupe.apps.jem3d.Mesh;
import org.troupe.core.Node;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.VirtualNode;
import org.troupe.tests.ParentRuntime;
import org.troupe.tests.jem3d.Jem3dTesting;

/**
 * Jem3D on the multi-cluster descriptor: one subdomain here, one in a PBS job behind an SSH front-end and one in a
 * Slurm job behind another (real sshd, Slurm and its PBS commands, as {@link BatchDeploymentTest} starts them), and
 * still the sequential run's fields bit for bit.
 */
class Jem3dMultiClusterTest {
    private static final Mesh MESH = new Mesh(9, 8, 7);
    private static final int STEPS = 15;
    /** Started first, stopped last: the parent runtime goes before the clusters its node JVMs ran on. */
    @RegisterExtension
    static final Clusters clusters = new Clusters();

    @RegisterExtension
    static final ParentRuntime parent = new ParentRuntime();

    @Test
    void aRunOnTwoClustersAndThisHostGivesTheSequentialFieldsBitForBit() throws Exception {
        final Jem3dReport sequential = Jem3dTesting.sequential(MESH, STEPS);
        final Jem3dOptions options =
                Jem3dTesting.options(MESH, STEPS).withNodes(3, Adapt.DIVIDE, 3).withTimeout(Duration.ofMinutes(2));
        final String id;
        try (Deployment d = Deployment.load(
                        Path.of("../descriptors/multi-cluster.xml"), clusters.multiClusterVariables())
                .start()) {
            id = d.id();
            final VirtualNode vn = d.virtualNode(Jem3dRun.VIRTUAL_NODE);
            final Jem3dTesting.Lines lines = new Jem3dTesting.Lines();
            final Jem3dRun.Placement p = Jem3dRun.place(options, vn, lines);
            assertEquals(3, p.nodes().size(), d.progress() + " " + d.failures() + " " + p.decision());
            // one node from each chain: here, cluster A (ssh, PBS), cluster B (ssh, Slurm)
            assertEquals(
                    Set.of(id + ".0.1.", id + ".0.2.", id + ".0.3."),
                    p.nodes().stream()
                            .map(n -> n.name().substring(0, id.length() + 5))
                            .collect(Collectors.toSet()),
                    p.nodes().toString());
            assertEquals(3, p.nodes().stream().map(Node::runtimeId).distinct().count(), "three JVMs");
            assertEquals(2, SlurmCluster.jobs().size(), "one job per cluster: " + SlurmCluster.jobs());
            // 8 x 7 x 6 cells: the x cuts are the smallest
            assertTrue(p.decision().contains("division 3x1x1"), p.decision());
            final Jem3dReport divided =
                    new Jem3dRun(options, lines).keepFields().run(p);
            assertEquals(3, divided.nodes());
            Jem3dTesting.assertSameRun(sequential, divided);
            assertEquals(List.of(), d.failures());
        }
        SlurmCluster.assertNoJobs();
        Leftovers.assertNothingLeft(id);
    }
}
