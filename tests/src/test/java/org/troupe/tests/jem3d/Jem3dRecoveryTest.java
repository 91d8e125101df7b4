package org.troupe.tests.jem3d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.apps.jem3d.Adapt;
import org.troupe.apps.jem3d.DiskCheckpoint;
import org.troupe.apps.jem3d.Jem3dException;
import org.troupe.apps.jem3d.Jem3dOptions;
import org.troupe.apps.jem3d.Jem3dReport;
import org.troupe.apps.jem3d.Jem3dRun;
import org.troupe.apps.jem3d.Mesh;
import org.troupe.apps.jem3d.RunEvent;
import org.troupe.apps.jem3d.RunStatus;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.VirtualNode;
import org.troupe.tests.ParentRuntime;
import org.troupe.tests.deploy.DeploymentLeftovers;
import org.troupe.tests.jem3d.Jem3dTesting.Lines;

/**
 * Jem3D survives lost node JVMs: killed at different moments of a step or a checkpoint, frozen past the peer timeout,
 * one after another; on a replacement node or re-divided among the nodes left. Each run ends with the fields of the
 * uninterrupted sequential run, bit for bit.
 */
class Jem3dRecoveryTest {
    private static final Mesh MESH = new Mesh(9, 8, 7);
    /** Some seconds of work at a few hundred steps a second: the losses come well before the end. */
    private static final int STEPS = 1_500;

    private static final int EVERY = 50;
    private static Jem3dReport sequential;

    @RegisterExtension
    static final ParentRuntime parent = new ParentRuntime();

    @BeforeAll
    static void reference() {
        sequential = Jem3dTesting.sequential(MESH, STEPS);
    }

    private static Jem3dOptions options(final int every) {
        return Jem3dTesting.options(MESH, STEPS).withCheckpoints(every, null);
    }

    @Test
    void aNodeKilledMidExchangeIsReplacedAndTheRunEndsWithTheSameFields() throws Exception {
        Lines watch = new Lines();
        Jem3dRun run = new Jem3dRun(options(EVERY), watch).keepFields();
        deployed(2, (d, nodes) -> {
            VirtualNode vn = d.virtualNode(Jem3dRun.VIRTUAL_NODE);
            // between two checkpoints: the subdomains are exchanging border values
            Jem3dReport report = runUntil(
                    watch, () -> run.run(d), s -> s.stepsDone() >= 120 && s.stepsDone() % EVERY > 5, () -> kill(vn));
            Jem3dTesting.assertSameRun(sequential, report);
            assertEquals(2, report.nodes(), "a replacement took the lost node's place");
            RunEvent restart = restartOf(report);
            assertTrue(restart.text().contains("replacement"), restart.text());
            assertTrue(restart.step() >= EVERY && restart.step() % EVERY == 0, "from a checkpoint: " + restart);
            assertEquals(2, vn.size(), "the virtual node has the replacement: " + vn);
        });
    }

    @Test
    void aNodeKilledRightAfterACheckpointLeavesTheRunToTheNodeLeft() throws Exception {
        Lines watch = new Lines();
        Jem3dRun run = new Jem3dRun(options(EVERY), watch).keepFields();
        deployed(2, (d, nodes) -> {
            // no virtual node to ask for a replacement: the mesh is divided among the nodes left
            Jem3dReport report = runUntil(
                    watch,
                    () -> run.run(new Jem3dRun.Placement(nodes, MESH, new int[] {2, 1, 1}, "test")),
                    s -> s.checkpointStep() >= EVERY,
                    () -> kill(nodes.get(1)));
            Jem3dTesting.assertSameRun(sequential, report);
            assertEquals(1, report.nodes());
            RunEvent restart = restartOf(report);
            assertTrue(restart.text().contains("re-divided onto 1 node"), restart.text());
            assertTrue(restart.step() >= EVERY, "from the checkpoint: " + restart);
        });
    }

    /** A lone node keeps no copy (it would die with it): its loss starts the run again on a replacement. */
    @Test
    void aLoneNodeLostIsReplacedAndTheRunStartsAgain() throws Exception {
        Lines watch = new Lines();
        Jem3dRun run = new Jem3dRun(options(EVERY).withNodes(1, Adapt.DIVIDE, 0), watch).keepFields();
        deployed(1, (d, nodes) -> {
            Jem3dReport report = runUntil(watch, () -> run.run(d), s -> s.stepsDone() >= 120, () -> kill(nodes.get(0)));
            Jem3dTesting.assertSameRun(sequential, report);
            RunEvent restart = restartOf(report);
            assertEquals(0, restart.step(), restart.toString());
            assertTrue(restart.text().contains("restarted from the start with a replacement node"), restart.text());
            assertTrue(
                    watch.lines.stream().anyMatch(l -> l.contains("no checkpoint (one node")), watch.lines.toString());
        });
    }

    /** With a checkpoint after every step, a kill lands while copies are taken and sent. */
    @Test
    void aNodeKilledDuringACheckpointIsSurvived() throws Exception {
        Lines watch = new Lines();
        Jem3dRun run = new Jem3dRun(options(1), watch).keepFields();
        deployed(3, (d, nodes) -> {
            Jem3dReport report = runUntil(
                    watch,
                    () -> run.run(new Jem3dRun.Placement(nodes, MESH, new int[] {3, 1, 1}, "test")),
                    s -> s.stepsDone() >= 100,
                    () -> kill(nodes.get(0)));
            Jem3dTesting.assertSameRun(sequential, report);
            assertEquals(2, report.nodes());
        });
    }

    @Test
    void twoNodesLostOneAfterTheOther() throws Exception {
        Lines watch = new Lines();
        Jem3dRun run = new Jem3dRun(options(EVERY), watch).keepFields();
        deployed(3, (d, nodes) -> {
            ExecutorService second = Executors.newSingleThreadExecutor();
            try {
                Jem3dReport report = runUntil(
                        watch,
                        () -> run.run(new Jem3dRun.Placement(nodes, MESH, new int[] {3, 1, 1}, "test")),
                        s -> s.stepsDone() >= 100,
                        () -> {
                            kill(nodes.get(2));
                            // the second once the run steps again after the first (at step 100 to 150 or so)
                            second.submit(() -> {
                                awaitAfterRestart(watch, 1, 250);
                                kill(nodes.get(0));
                                return null;
                            });
                        });
                Jem3dTesting.assertSameRun(sequential, report);
                assertEquals(1, report.nodes());
                assertEquals(
                        List.of(
                                RunEvent.Kind.LOST,
                                RunEvent.Kind.RESTARTED,
                                RunEvent.Kind.LOST,
                                RunEvent.Kind.RESTARTED),
                        report.events().stream().map(RunEvent::kind).toList(),
                        report.events().toString());
            } finally {
                second.shutdownNow();
            }
        });
    }

    @Test
    void aNodeFrozenPastThePeerTimeoutIsLostAndReplaced() throws Exception {
        Lines watch = new Lines();
        Jem3dRun run = new Jem3dRun(options(EVERY), watch).keepFields();
        long[] frozen = {0};
        deployed(2, (d, nodes) -> {
            VirtualNode vn = d.virtualNode(Jem3dRun.VIRTUAL_NODE);
            try {
                Jem3dReport report = runUntil(watch, () -> run.run(d), s -> s.stepsDone() >= 100, () -> {
                    frozen[0] = TroupeRuntime.pidOf(vn.nodes().get(1).runtimeId());
                    signal("STOP", frozen[0]);
                });
                Jem3dTesting.assertSameRun(sequential, report);
                RunEvent loss = report.events().getFirst();
                assertEquals(RunEvent.Kind.LOST, loss.kind());
                assertTrue(loss.text().contains("nothing heard"), loss.text());
            } finally {
                if (frozen[0] != 0) {
                    ProcessHandle.of(frozen[0]).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        });
    }

    /** A node and its buddy lost at once take both copies of a checkpoint: without one on disk the run ends. */
    @Test
    void aNodeLostWithItsBuddyEndsTheRunSayingWhatWasLost() throws Exception {
        Lines watch = new Lines();
        Jem3dRun run = new Jem3dRun(options(EVERY), watch);
        deployed(3, (d, nodes) -> {
            ExecutionException e = assertThrows(
                    ExecutionException.class,
                    () -> runUntil(
                            watch,
                            () -> run.run(new Jem3dRun.Placement(nodes, MESH, new int[] {3, 1, 1}, "test")),
                            s -> s.checkpointStep() >= EVERY,
                            () -> {
                                kill(nodes.get(1));
                                kill(nodes.get(2));
                            }));
            Jem3dException failure = assertInstanceOf(Jem3dException.class, e.getCause());
            assertTrue(failure.getMessage().contains("both checkpoint copies"), failure.getMessage());
            assertTrue(failure.getMessage().contains("subdomain 1 "), failure.getMessage());
        });
    }

    /** With checkpoints on disk too, the run goes on from the last of them when a node goes with its buddy. */
    @Test
    void aNodeLostWithItsBuddyIsSurvivedFromTheDiskCheckpoint(@TempDir final Path checkpoints) throws Exception {
        Lines watch = new Lines();
        Jem3dRun run =
                new Jem3dRun(Jem3dTesting.options(MESH, STEPS).withCheckpoints(EVERY, checkpoints), watch).keepFields();
        deployed(3, (d, nodes) -> {
            Jem3dReport report = runUntil(
                    watch,
                    () -> run.run(new Jem3dRun.Placement(nodes, MESH, new int[] {3, 1, 1}, "test")),
                    s -> s.checkpointStep() >= EVERY && DiskCheckpoint.latest(checkpoints) != null,
                    () -> {
                        kill(nodes.get(1));
                        kill(nodes.get(2));
                    });
            Jem3dTesting.assertSameRun(sequential, report);
            RunEvent restart = report.events().stream()
                    .filter(e -> e.kind() == RunEvent.Kind.RESTARTED)
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(report.events().toString()));
            assertTrue(restart.text().contains("the disk checkpoint of step"), restart.text());
            assertTrue(restart.text().contains("both checkpoint copies"), restart.text());
        });
    }

    /** Waits until the run has restarted {@code restarts} times and then made {@code steps} steps in all. */
    private static void awaitAfterRestart(final Lines watch, final int restarts, final int steps)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            long done = watch.lines.stream()
                    .filter(l -> l.contains("restarted from"))
                    .count();
            RunStatus s = watch.latest;
            if (done >= restarts && s != null && s.stepsDone() >= steps) {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("the run did not step again after " + restarts + " restarts: " + watch.lines);
    }

    /**
     * Runs {@code run} on a thread of its own, does {@code act} once its progress satisfies {@code when}, and
     * returns its report.
     */
    private static Jem3dReport runUntil(
            final Lines watch, final Callable<Jem3dReport> run, final Predicate<RunStatus> when, final Runnable act)
            throws Exception {
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            Future<Jem3dReport> report = runner.submit(run);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!report.isDone()
                    && (watch.latest == null || !when.test(watch.latest))
                    && System.nanoTime() < deadline) {
                Thread.sleep(2);
            }
            if (report.isDone()) {
                report.get(); // what ended it
                throw new AssertionError("the run ended before the loss: " + watch.latest);
            }
            assertNotNull(watch.latest, "the run never reported progress: " + watch.lines);
            assertTrue(when.test(watch.latest), "the run did not get there in time: " + watch.latest);
            act.run();
            return report.get(120, TimeUnit.SECONDS);
        } finally {
            runner.shutdownNow();
            assertTrue(runner.awaitTermination(60, TimeUnit.SECONDS), "the run's thread ended");
        }
    }

    private interface OnDeployment {
        void run(Deployment d, List<Node> nodes) throws Exception;
    }

    /** Runs {@code test} on a local deployment of {@code jvms} node JVMs once they came; then checks nothing is left. */
    private static void deployed(final int jvms, final OnDeployment test) throws Exception {
        String id;
        try (Deployment d = Deployment.load(Jem3dTesting.LOCAL, Jem3dTesting.localVariables(jvms))
                .start()) {
            id = d.id();
            test.run(d, nodes(d, jvms));
        }
        DeploymentLeftovers.assertNothingLeft(id);
    }

    private static List<Node> nodes(final Deployment d, final int n) {
        List<Node> nodes = d.virtualNode(Jem3dRun.VIRTUAL_NODE).waitForNodes(n, Jem3dTesting.WAIT);
        assertEquals(n, nodes.size(), d.progress() + " " + d.failures());
        return nodes;
    }

    private static RunEvent restartOf(final Jem3dReport report) {
        assertEquals(
                List.of(RunEvent.Kind.LOST, RunEvent.Kind.RESTARTED),
                report.events().stream().map(RunEvent::kind).toList(),
                report.events().toString());
        return report.events().get(1);
    }

    private static void kill(final VirtualNode vn) {
        kill(vn.nodes().get(1));
    }

    private static void kill(final Node node) {
        ProcessHandle.of(TroupeRuntime.pidOf(node.runtimeId())).orElseThrow().destroyForcibly();
    }

    private static void signal(final String signal, final long pid) {
        try {
            assertEquals(
                    0,
                    new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                            .start()
                            .waitFor());
        } catch (IOException e) {
            throw new AssertionError("kill -" + signal + " " + pid + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
