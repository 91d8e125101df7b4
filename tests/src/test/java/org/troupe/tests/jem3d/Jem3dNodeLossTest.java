package org.troupe.tests.jem3d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.apps.jem3d.Jem3dException;
import org.troupe.apps.jem3d.Jem3dReport;
import org.troupe.apps.jem3d.Jem3dRun;
import org.troupe.apps.jem3d.Mesh;
import org.troupe.apps.jem3d.OnLoss;
import org.troupe.apps.jem3d.RunStatus;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.VirtualNode;
import org.troupe.tests.Await;
import org.troupe.tests.ParentRuntime;
import org.troupe.tests.deploy.DeploymentLeftovers;

/** With --on-loss fail, a node JVM killed while Jem3D runs on it ends the run with an error naming its subdomain. */
class Jem3dNodeLossTest {
    private static final Mesh MESH = new Mesh(9, 8, 7);
    /** Far more steps than the run makes before the kill: a minute of work at a few hundred steps a second. */
    private static final int STEPS = 20_000;
    /** The run's latest progress, as its listener is told. */
    private static final AtomicReference<RunStatus> LATEST = new AtomicReference<>();

    @RegisterExtension
    static final ParentRuntime parent = new ParentRuntime();

    @Test
    void aNodeJvmKilledMidRunEndsItWithAnErrorNamingTheLostSubdomain() throws Exception {
        final String id;
        ExecutorService runner = Executors.newSingleThreadExecutor();
        Jem3dRun run = new Jem3dRun(Jem3dTesting.options(MESH, STEPS).withOnLoss(OnLoss.FAIL), new Jem3dRun.Listener() {
            @Override
            public void progress(final RunStatus status) {
                LATEST.set(status);
            }
        });
        try (Deployment d = Deployment.load(Jem3dTesting.LOCAL, Jem3dTesting.localVariables(2))
                .start()) {
            id = d.id();
            VirtualNode vn = d.virtualNode(Jem3dRun.VIRTUAL_NODE);
            List<Node> nodes = vn.waitForNodes(2, Jem3dTesting.WAIT);
            assertEquals(2, nodes.size(), d.progress() + " " + d.failures());
            // subdomain 0 on the first node, subdomain 1 on the second
            Future<Jem3dReport> report = runner.submit(() ->
                    run.run(new Jem3dRun.Placement(nodes, MESH, new int[] {2, 1, 1}, "test: one subdomain per node")));
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while ((LATEST.get() == null || LATEST.get().stepsDone() < 20)
                        && !report.isDone()
                        && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                if (report.isDone()) {
                    report.get(); // throws what ended the run
                    throw new AssertionError("the run ended before the kill: " + LATEST.get());
                }
                assertNotNull(LATEST.get(), "the run never reported progress");
                assertTrue(LATEST.get().stepsDone() >= 20, "the run is stepping: " + LATEST.get());
                String victim = nodes.get(1).runtimeId();
                ProcessHandle.of(TroupeRuntime.pidOf(victim)).orElseThrow().destroyForcibly();

                ExecutionException e = assertThrows(
                        ExecutionException.class,
                        () -> report.get(30, TimeUnit.SECONDS),
                        "the run ends once the node is lost");
                Jem3dException failure = assertInstanceOf(Jem3dException.class, e.getCause());
                String message = failure.getMessage();
                assertTrue(message.contains("subdomain 1 "), message);
                assertFalse(message.contains("subdomain 0 "), "subdomain 0 was not lost: " + message);
                assertTrue(message.contains(victim), "names the lost JVM: " + message);
                assertTrue(LATEST.get().stepsDone() < STEPS, "stopped early: " + LATEST.get());
            } finally {
                run.stop();
                if (!report.isDone()) {
                    d.close(); // ends the run: its other subdomain's JVM is lost as well
                }
                report.cancel(true);
            }
            Await.until(Duration.ofSeconds(20), () -> vn.size() <= 1, "the killed JVM's node to leave");
            assertEquals(List.of(nodes.get(0)), vn.nodes(), "the other node stays");
            assertEquals(1, d.failures().size(), d.failures().toString());
            assertTrue(
                    d.failures().getFirst().reason().contains("was lost"),
                    d.failures().toString());
            // the surviving node JVM is not left in a broken state: it takes a new run
            Jem3dReport again = new Jem3dRun(Jem3dTesting.options(MESH, 5), new Jem3dRun.Listener() {})
                    .run(new Jem3dRun.Placement(List.of(nodes.get(0)), MESH, new int[] {2, 1, 1}, "after the loss"));
            assertEquals(5, again.steps());
        } finally {
            runner.shutdownNow();
            assertTrue(runner.awaitTermination(30, TimeUnit.SECONDS), "the run's thread ended");
        }
        DeploymentLeftovers.assertNothingLeft(id);
    }
}
