package org.troupe.tests.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real two-node Slurm cluster whose controller and nodes are separate network stacks, as separate hosts
 * ({@link NamespaceSlurm}), and the launcher in another: 2-node jobs through sbatch/srun and through Slurm's PBS
 * commands (qsub), whose JVMs, with no address setting, announce their own node's address and call each other.
 * Skipped (one line) without root, {@code ip netns} or Slurm.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SlurmNamespacesTest {
    private static final String SUBNET = "10.213.20";
    private static NamespaceSlurm slurm;

    @BeforeAll
    static void cluster() throws Exception {
        final String unavailable = NamespaceSlurm.unavailable(false);
        Assumptions.assumeTrue(unavailable == null, unavailable);
        slurm = NamespaceSlurm.start(SUBNET, List.of("a"), false);
    }

    @AfterAll
    static void stop() {
        if (slurm != null) {
            slurm.close();
        }
    }

    /** The cluster itself: srun runs one task on each node, and each task is in its own node's network. */
    @Test
    void aTwoNodeStepRunsOneTaskOnEachNodeWithTheNodesAddress() throws Exception {
        final NamespaceSlurm.Cluster a = slurm.cluster(0);
        final String out = a.run("srun", "--nodes=2", "--ntasks=2", "sh", "-c", "echo $SLURMD_NODENAME $(hostname -I)");
        assertEquals(
                Set.of(
                        a.nodeName(0) + " " + a.nodeAddresses().get(0),
                        a.nodeName(1) + " " + a.nodeAddresses().get(1)),
                out.lines().map(String::strip).collect(Collectors.toSet()),
                out);
    }

    @Test
    void aSlurmJobOnTwoNodesHasItsJvmsCallEachOtherAtTheirNodesAddresses() throws Exception {
        deployOnBothNodes("slurm", LauncherRun.descriptor("slurm.xml"), "nodes=2", "tasks=2");
    }

    @Test
    void aPbsJobOnTwoNodesHasItsJvmsCallEachOtherAtTheirNodesAddresses() throws Exception {
        deployOnBothNodes("pbs", LauncherRun.descriptor("pbs.xml"), "nodes=2", "ppn=1", "jvmsPerNode=1");
    }

    /**
     * Deploys {@code descriptor}: one job on both nodes, a JVM on each; they call each other and the launcher;
     * then closing the deployment leaves no job and no process.
     */
    private static void deployOnBothNodes(final String tag, final String descriptor, final String... vars)
            throws Exception {
        final NamespaceSlurm.Cluster a = slurm.cluster(0);
        final String[] args = new String[3 + vars.length];
        args[0] = "hops";
        args[1] = descriptor;
        args[2] = "2";
        System.arraycopy(vars, 0, args, 3, vars.length);
        try (LauncherRun run = new LauncherRun(slurm, tag, args)) {
            final Map<String, String> facts = run.await("up");
            LauncherRun.assertHops(facts, List.of(a.nodeAddresses(), a.nodeAddresses()));
            final List<String> jobs = a.jobs();
            assertEquals(1, jobs.size(), jobs.toString());
            final String[] job = jobs.getFirst().split(" ");
            assertEquals(List.of("RUNNING", "2"), List.of(job[2], job[3]), "one job on both nodes: " + jobs);
            for (final int node : a.nodes()) { // what closeAndCheck then finds none of
                LauncherRun.assertNodeJvmsWithNoAddressSetting(slurm.net(), List.of(node));
            }
            run.closeAndCheck();
        }
    }
}
