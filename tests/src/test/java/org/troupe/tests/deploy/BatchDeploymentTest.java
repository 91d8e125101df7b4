package org.troupe.tests.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.DeploymentFailure;
import org.troupe.deploy.VirtualNode;
import org.troupe.tests.ParentRuntime;
import org.troupe.tests.core.Worker;

/**
 * Deployments through batch systems and front-ends: a real one-node Slurm cluster with its PBS commands, reached
 * here or through real SSH front-ends; two front-ends make the multi-cluster deployment, and a host behind another.
 */
class BatchDeploymentTest {
    private static final Duration WAIT = Duration.ofMinutes(2);
    /** Started first, stopped last: the parent runtime goes before the clusters its node JVMs ran on. */
    @RegisterExtension
    static final Clusters clusters = new Clusters();

    @RegisterExtension
    static final ParentRuntime parent = new ParentRuntime();

    /** Deploys, checks that {@code wanted} nodes of {@code vn} serve calls, closes, and checks nothing is left. */
    private static List<Node> deployAndUse(final Path descriptor, final Map<String, String> vars, final int wanted)
            throws Exception {
        final String id;
        final List<Node> nodes;
        try (Deployment d = Deployment.load(descriptor, vars).start()) {
            id = d.id();
            nodes = d.virtualNode("jem3d").waitForNodes(wanted, WAIT);
            assertEquals(wanted, nodes.size(), d.progress() + " " + d.failures());
            final Set<Long> pids = nodes.stream()
                    .map(n -> ActiveObjects.newActive(Worker.class, new Object[0], n)
                            .pid())
                    .collect(Collectors.toSet());
            assertEquals(wanted, pids.size(), "one JVM per node");
            assertEquals(List.of(), d.failures());
            assertEquals(
                    1,
                    SlurmCluster.jobs().stream()
                            .filter(j -> j.contains("RUNNING"))
                            .count(),
                    SlurmCluster.jobs().toString());
        }
        SlurmCluster.assertNoJobs();
        Leftovers.assertNothingLeft(id);
        return nodes;
    }

    @Test
    void aSlurmJobStartsOneJvmPerTask() throws Exception {
        deployAndUse(Path.of("../descriptors/slurm.xml"), Map.of("tasks", "2", "vn", "jem3d"), 2);
    }

    @Test
    void theLinesOfASlurmJobsJvmsComeHomeFromItsLog() throws Exception {
        final String id;
        try (RelayedOutput output = new RelayedOutput();
                Deployment d = Deployment.load(Path.of("../descriptors/slurm.xml"), Map.of("tasks", "2", "vn", "jem3d"))
                        .start()) {
            id = d.id();
            assertEquals(2, d.virtualNode("jem3d").waitForNodes(2, WAIT).size(), d.progress() + " " + d.failures());
            // one JVM script per task: each JVM is named in the order their scripts first printed
            assertTrue(
                    output.awaitErrLines(
                            "\\[jem3d-1] .*NodeMain - Nodes \\[" + id + ".* registered with .*",
                            "\\[jem3d-2] .*NodeMain - Nodes \\[" + id + ".* registered with .*"),
                    output.errLines().toString());
        }
        SlurmCluster.assertNoJobs();
        Leftovers.assertNothingLeft(id);
    }

    @Test
    void aPbsJobStartsTheJvmsOnItsNode() throws Exception {
        deployAndUse(Path.of("../descriptors/pbs.xml"), Map.of("jvmsPerNode", "2", "vn", "jem3d"), 2);
    }

    @Test
    void aTaskWhoseJvmFailsIsReportedWhileTheJobRunsOn(@TempDir final Path fakeJava) throws Exception {
        LocalDeploymentTest.javaStartingOnlyTheFirst(fakeJava);
        final String id;
        try (Deployment d = Deployment.load(
                        Path.of("src/test/resources/deploy/slurm-one-fails.xml"),
                        Map.of("fakeJavaHome", fakeJava.toString()))
                .start()) {
            id = d.id();
            final VirtualNode vn = d.virtualNode("jem3d");
            LocalDeploymentTest.assertSecondJvmReported(d, vn);
            assertEquals(1, SlurmCluster.jobs().size(), "the job runs on with its other task");
        }
        SlurmCluster.assertNoJobs();
        Leftovers.assertNothingLeft(id);
    }

    @Test
    void sshThenPbsThenJvms() throws Exception {
        deployAndUse(
                Path.of("src/test/resources/deploy/ssh-pbs.xml"),
                Map.of(
                        "port",
                        String.valueOf(clusters.portA()),
                        "key",
                        clusters.key().toString()),
                2);
    }

    @Test
    void oneDescriptorDeploysOnTwoClustersAndThisHost() throws Exception {
        final String id;
        try (Deployment d = Deployment.load(
                        Path.of("../descriptors/multi-cluster.xml"), clusters.multiClusterVariables())
                .start()) {
            id = d.id();
            final VirtualNode vn = d.virtualNode("jem3d");
            final List<Node> nodes = vn.waitForNodes(3, WAIT);
            assertEquals(3, nodes.size(), d.progress() + " " + d.failures());
            assertEquals(3, vn.wanted(), "greedy: all that the three chains offer");
            // node names carry their launch: here, cluster A (ssh, PBS), cluster B (ssh, Slurm)
            assertEquals(
                    Set.of(id + ".0.1.", id + ".0.2.", id + ".0.3."),
                    nodes.stream()
                            .map(n -> n.name().substring(0, id.length() + 5))
                            .collect(Collectors.toSet()));
            for (final Node n : nodes) {
                assertEquals(
                        9,
                        ActiveObjects.newActive(Worker.class, new Object[0], n)
                                .compute(3)
                                .value());
            }
            assertEquals(2, SlurmCluster.jobs().size(), "one job per cluster: " + SlurmCluster.jobs());
        }
        SlurmCluster.assertNoJobs();
        Leftovers.assertNothingLeft(id);
    }

    @Test
    void aHostBehindAFrontendIsReachedThroughItAndItsOwnKeyIsChecked() throws Exception {
        final String id;
        try (Deployment d = Deployment.load(
                        Path.of("src/test/resources/deploy/ssh-ssh.xml"),
                        Map.of(
                                "portA",
                                String.valueOf(clusters.portA()),
                                "portB",
                                String.valueOf(clusters.portB()),
                                "key",
                                clusters.key().toString()))
                .start()) {
            id = d.id();
            final List<Node> nodes = d.virtualNode("jem3d").waitForNodes(1, WAIT);
            assertEquals(1, nodes.size(), d.progress() + " " + d.failures());
            assertEquals(
                    4,
                    ActiveObjects.newActive(Worker.class, new Object[0], nodes.getFirst())
                            .compute(2)
                            .value());
        }
        Leftovers.assertNothingLeft(id);
        // the inner host's key is recorded under its own name, not under the tunnel's local port
        final String knownHosts = Files.readString(clusters.knownHosts());
        assertTrue(knownHosts.contains("[127.0.0.1]:" + clusters.portB() + " "), knownHosts);
        assertEquals(2, knownHosts.lines().count(), knownHosts);
    }

    /** Deploys {@code descriptor}, whose job the batch system refuses; returns the failure. */
    private static DeploymentFailure refused(final String descriptor, final Map<String, String> vars) throws Exception {
        final String id;
        final DeploymentFailure f;
        try (Deployment d = Deployment.load(Path.of(descriptor), vars).start()) {
            id = d.id();
            final VirtualNode vn = d.virtualNode("jem3d");
            assertEquals(List.of(), vn.waitForNodes(1, WAIT));
            assertTrue(vn.isSettled(), d.progress());
            assertEquals(1, d.failures().size(), d.failures().toString());
            f = d.failures().getFirst();
        }
        SlurmCluster.assertNoJobs();
        Leftovers.assertNothingLeft(id);
        return f;
    }

    @Test
    void aJobQsubRefusesIsReportedWithItsReason() throws Exception {
        final DeploymentFailure f = refused("../descriptors/pbs.xml", Map.of("queue", "nosuchqueue", "vn", "jem3d"));
        assertTrue(
                f.reason().contains("the batch system refused the job: qsub gave exit code")
                        && f.reason().contains("nosuchqueue"),
                f.reason());
        assertEquals(2, f.nodesMissing());
    }

    @Test
    void aJobSbatchRefusesIsReportedWithItsReason() throws Exception {
        final DeploymentFailure f =
                refused("../descriptors/slurm.xml", Map.of("partition", "nosuchpartition", "vn", "jem3d"));
        assertTrue(
                f.reason().contains("the batch system refused the job: sbatch gave exit code")
                        && f.reason().contains("Invalid partition"),
                f.reason());
    }
}
