package org.troupe.tests.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * descriptors/multi-cluster.xml over two real Slurm clusters in network namespaces ({@link NamespaceSlurm}), each
 * behind its own SSH front-end (sshd on its controller's address): cluster a through the PBS commands, cluster b
 * through sbatch, and one JVM beside the launcher. No JVM but the launcher is given an address. Skipped (one line)
 * without root, {@code ip netns}, Slurm or sshd.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MultiClusterNamespacesTest {
    private static final String SUBNET = "10.213.21";
    /** Four peer timeouts of the launcher's (NamespaceSlurm#launcher): long enough for a lost link to show. */
    private static final long HOLD_MILLIS = 6_000;

    private static NamespaceSlurm slurm;

    @BeforeAll
    static void clusters() throws Exception {
        final String unavailable = NamespaceSlurm.unavailable(true);
        Assumptions.assumeTrue(unavailable == null, unavailable);
        slurm = NamespaceSlurm.start(SUBNET, List.of("a", "b"), true);
    }

    @AfterAll
    static void stop() {
        if (slurm != null) {
            slurm.close();
        }
    }

    /** ClusterLauncher's arguments: {@code mode} on multi-cluster.xml's three nodes, the front-ends' addresses. */
    private static String[] multiCluster(final String mode) {
        final List<String> args = new ArrayList<>(List.of(mode, LauncherRun.descriptor("multi-cluster.xml"), "3"));
        args.addAll(List.of(
                "hostA=" + slurm.cluster(0).frontEnd(),
                "portA=22",
                "hostB=" + slurm.cluster(1).frontEnd(),
                "portB=22",
                "key=" + slurm.userKey(),
                "knownHosts=accept-new"));
        return args.toArray(String[]::new);
    }

    /** Where the nodes of multi-cluster.xml's launches run, in their order: here, cluster a, cluster b. */
    private static List<List<String>> whereTheNodesRun() {
        return List.of(
                List.of(slurm.net().address(NamespaceSlurm.LAUNCHER)),
                slurm.cluster(0).nodeAddresses(),
                slurm.cluster(1).nodeAddresses());
    }

    /** Both clusters run one job each, of one node. */
    private static void assertOneJobEach() throws Exception {
        for (final NamespaceSlurm.Cluster c : slurm.clusters()) {
            final List<String> jobs = c.jobs();
            assertEquals(1, jobs.size(), "cluster " + c.name() + ": " + jobs);
            assertTrue(jobs.getFirst().contains(" RUNNING 1 "), "cluster " + c.name() + ": " + jobs);
        }
    }

    /**
     * A JVM here, one on a node of each cluster: all call each other, each at its own host's address (the
     * clusters' JVMs at their compute nodes'); closing the deployment leaves no job, no session and no process.
     */
    @Test
    void oneDescriptorDeploysOnTwoClustersBehindTheirFrontEndsAndCallsGoEveryWay() throws Exception {
        try (LauncherRun run = new LauncherRun(slurm, "multi-cluster", multiCluster("hops"))) {
            final Map<String, String> facts = run.await("up");
            LauncherRun.assertHops(facts, whereTheNodesRun());
            assertOneJobEach();
            LauncherRun.assertNodeJvmsWithNoAddressSetting(slurm.net(), List.of(NamespaceSlurm.LAUNCHER));
            for (final NamespaceSlurm.Cluster c : slurm.clusters()) {
                LauncherRun.assertNodeJvmsWithNoAddressSetting(slurm.net(), c.nodes());
            }
            run.closeAndCheck();
        }
    }

    /**
     * Cluster b behind a slow link (tc netem: each packet to or from its hosts waits 5 ms): the deployment comes up
     * as nearby, and holds, heartbeats and all, for several peer timeouts (nothing is lost). Skipped (one line) where
     * the kernel has no netem.
     */
    @Test
    void aDeploymentHoldsOverASlowLinkToOneCluster() throws Exception {
        final String unavailable = slurm.net().delayUnavailable();
        Assumptions.assumeTrue(unavailable == null, unavailable);
        final List<Integer> far = slurm.cluster(1).namespaces();
        try {
            for (final int ns : far) {
                slurm.net().delay(ns, 5);
            }
            try (LauncherRun run = new LauncherRun(slurm, "multi-cluster-slow", multiCluster("hops"))) {
                LauncherRun.assertHops(run.await("up"), whereTheNodesRun());
                Thread.sleep(HOLD_MILLIS); // no assertion on time: a node lost meanwhile is a failure
                run.closeAndCheck();
            }
        } finally {
            for (final int ns : far) {
                try {
                    slurm.net().delay(ns, 0);
                } catch (IOException e) {
                    // it had not been delayed: the failure that stopped it is the test's
                }
            }
        }
    }

    /**
     * Jem3D on both clusters and here, cluster a cut off the network while it steps: the run loses its node there,
     * goes on on the others from its last checkpoint, and still ends with the sequential run's fields.
     */
    @Test
    void jem3dGoesOnWhenAWholeClusterIsCutOff() throws Exception {
        try (LauncherRun run = new LauncherRun(slurm, "multi-cluster-jem3d-cut", multiCluster("jem3d-cut"))) {
            run.await("stepping");
            final List<Integer> cut = slurm.cluster(0).namespaces();
            try {
                for (final int ns : cut) {
                    slurm.net().link(ns, false);
                }
                final Map<String, String> facts = run.await("up");
                assertTrue(facts.getOrDefault("jem3d", "").startsWith("the sequential fields on "), run.output());
                assertTrue(facts.get("events").contains(": lost subdomain"), facts.get("events"));
                assertTrue(
                        facts.get("events").contains(": restarted from the checkpoint of step"), facts.get("events"));
            } finally {
                for (final int ns : cut) {
                    slurm.net().link(ns, true); // the deployment cancels the cluster's job through its front-end
                }
            }
            run.closeAndCheck("was lost");
        }
    }

    /** Jem3D, one subdomain on each host, computes the sequential run's fields bit for bit (ClusterLauncher). */
    @Test
    void jem3dOnTwoClustersAndHereGivesTheSequentialFields() throws Exception {
        try (LauncherRun run = new LauncherRun(slurm, "multi-cluster-jem3d", multiCluster("jem3d"))) {
            final Map<String, String> facts = run.await("up");
            assertEquals("the sequential fields on 3 nodes", facts.get("jem3d"), run.output());
            assertTrue(facts.get("division").contains("division 3x1x1"), facts.get("division"));
            final List<List<String>> where = whereTheNodesRun();
            for (int i = 0; i < 3; i++) {
                final String address = facts.get("node" + i).split(" ")[0];
                assertTrue(
                        where.get(i).contains(address.substring(0, address.lastIndexOf(':'))),
                        "node " + i + " at " + address + ", not on " + where.get(i));
            }
            assertOneJobEach();
            run.closeAndCheck();
        }
    }
}
