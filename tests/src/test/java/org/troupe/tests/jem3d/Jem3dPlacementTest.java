package org.troupe.tests.jem3d;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.apps.jem3d.Adapt;
import org.troupe.apps.jem3d.Jem3dException;
import org.troupe.apps.jem3d.Jem3dOptions;
import org.troupe.apps.jem3d.Jem3dReport;
import org.troupe.apps.jem3d.Jem3dRun;
import org.troupe.apps.jem3d.Mesh;
import org.troupe.apps.jem3d.RunEvent;
import org.troupe.core.Node;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.VirtualNode;
import org.troupe.tests.Await;
import org.troupe.tests.ParentRuntime;
import org.troupe.tests.deploy.DeploymentLeftovers;

/**
 * Where Jem3D puts its subdomains on a real deployment: the division with the fewest border faces for the nodes
 * that came, and what each adapt policy does when the descriptor gives fewer nodes than the run asks for.
 */
class Jem3dPlacementTest {
    private static final int STEPS = 6;
    /** What the runs ask for while local.xml gives 2 JVMs, and how long they wait for the rest. */
    private static final int ASKED = 4;

    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    /** The timeout where the wait really times out (nodes that never come). */
    private static final Duration SHORT = Duration.ofSeconds(2);

    @RegisterExtension
    static final ParentRuntime parent = new ParentRuntime();

    private static Path resource(final String name) {
        return Path.of("src/test/resources/jem3d", name);
    }

    /**
     * Runs {@code test} on the virtual node of {@code descriptor} once {@code nodes} nodes have arrived; then closes
     * the deployment and checks that nothing is left.
     */
    private static void deployed(
            final Path descriptor, final Map<String, String> vars, final int nodes, final DeploymentTest test)
            throws Exception {
        final String id;
        try (Deployment d = Deployment.load(descriptor, vars).start()) {
            id = d.id();
            VirtualNode vn = d.virtualNode(Jem3dRun.VIRTUAL_NODE);
            assertEquals(nodes, vn.waitForNodes(nodes, Jem3dTesting.WAIT).size(), d.progress() + " " + d.failures());
            test.run(d, vn);
            assertEquals(List.of(), d.failures(), "no node JVM failed or was lost");
        }
        DeploymentLeftovers.assertNothingLeft(id);
    }

    private interface DeploymentTest {
        void run(Deployment d, VirtualNode vn) throws Exception;
    }

    private static Jem3dOptions asking(final Mesh mesh, final Adapt adapt, final int minNodes) {
        return Jem3dTesting.options(mesh, STEPS)
                .withNodes(ASKED, adapt, minNodes)
                .withTimeout(TIMEOUT);
    }

    private static Jem3dOptions asking(final Mesh mesh, final Adapt adapt, final int minNodes, final Duration t) {
        return asking(mesh, adapt, minNodes).withTimeout(t);
    }

    @Test
    void fourNodesOnAFlatMeshAreDividedTwoByTwoWithTheFewestBorderFaces() throws Exception {
        // 8 x 8 x 4 cells: cutting z costs 64 faces per cut, x or y 32; 2x2x1 is the only division with 2 cuts of 32
        Mesh mesh = new Mesh(9, 9, 5);
        deployed(resource("two-jvms-two-nodes-each.xml"), Map.of(), 4, (d, vn) -> {
            Jem3dTesting.Lines lines = new Jem3dTesting.Lines();
            Jem3dOptions options = Jem3dTesting.options(mesh, STEPS).withNodes(4, Adapt.DIVIDE, 0);
            Jem3dRun.Placement p = Jem3dRun.place(options, vn, lines);
            assertArrayEquals(new int[] {2, 2, 1}, p.division(), p.decision());
            for (int a = 1; a <= 4; a++) {
                for (int b = 1; a * b <= 4; b++) {
                    if (4 % (a * b) == 0) {
                        int[] other = {a, b, 4 / (a * b)};
                        assertTrue(
                                mesh.borderFaces(p.division()) <= mesh.borderFaces(other),
                                "division " + Arrays.toString(other) + " has fewer border faces than " + p.decision());
                    }
                }
            }
            assertEquals(128, mesh.borderFaces(p.division()));
            assertEquals(mesh, p.mesh());
            assertEquals(4, p.nodes().size());
            assertEquals(4, p.nodes().stream().distinct().count(), "4 nodes");
            assertEquals(2, p.nodes().stream().map(Node::runtimeId).distinct().count(), "in 2 JVMs");
            assertTrue(
                    p.decision().contains("got the 4 nodes asked for")
                            && p.decision()
                                    .contains("division 2x2x1 (128 border faces), the fewest border faces for 4 nodes"),
                    p.decision());
            Jem3dReport r = new Jem3dRun(options, lines).keepFields().run(p);
            assertEquals(4, r.nodes());
            Jem3dTesting.assertSameRun(Jem3dTesting.sequential(mesh, STEPS), r);
        });
    }

    @Test
    void everyAdaptPolicyDecidesWhatToDoWithTwoOfFourNodes() throws Exception {
        Mesh mesh = new Mesh(9, 9, 9);
        deployed(Jem3dTesting.LOCAL, Jem3dTesting.localVariables(2), 2, (d, vn) -> {
            divideUsesTheTwoNodes(d, vn, mesh);
            shrinkKeepsTheCellsPerNode(vn, mesh);
            waitForThreeFailsNamingMinNodes(vn, mesh);
            waitForTwoGoesOnWithThem(vn, mesh);
        });
    }

    @Test
    void waitWaitsOnceMoreForNodesThatMayStillComeThenNamesMinNodes(@TempDir final Path fakeJava) throws Exception {
        Path java = Files.createDirectories(fakeJava.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\nexec sleep 300\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        Mesh mesh = new Mesh(9, 9, 9);
        deployed(resource("two-and-two-silent.xml"), Map.of("fakeJavaHome", fakeJava.toString()), 2, (d, vn) -> {
            Jem3dTesting.Lines lines = new Jem3dTesting.Lines();
            Jem3dException e = assertThrows(
                    Jem3dException.class, () -> Jem3dRun.place(asking(mesh, Adapt.WAIT, 3, SHORT), vn, lines));
            assertFalse(vn.isSettled(), "two JVMs may still call home: " + d.progress());
            assertEquals(List.of("got 2 of 4 nodes; --adapt wait: waiting up to 2 s more for at least 3"), lines.lines);
            assertTrue(
                    e.getMessage().startsWith("only 2 of the 3 nodes required (--min-nodes) arrived;")
                            && e.getMessage().endsWith("lower --min-nodes or give more time with --timeout"),
                    e.getMessage());
            // the same shortage with divide: the decision says it waited the timeout, not that no more can come
            Jem3dRun.Placement p = Jem3dRun.place(asking(mesh, Adapt.DIVIDE, 0, SHORT), vn, lines);
            assertTrue(p.decision().startsWith("got 2 of 4 nodes asked for (after 2 s)"), p.decision());
            assertArrayEquals(new int[] {1, 1, 2}, p.division(), p.decision());
        });
    }

    /**
     * --adapt grow: the run starts on the node that came, and the two that come once it steps join it at a
     * checkpoint, the mesh re-divided onto all three; the fields end as the sequential run's.
     */
    @Test
    void growTakesNodesThatComeLateAtACheckpoint(@TempDir final Path lateJava) throws Exception {
        Path gate = lateJava.resolve("open");
        Path java = Files.createDirectories(lateJava.resolve("bin")).resolve("java");
        Files.writeString(
                java,
                "#!/bin/sh\nwhile [ ! -e '" + gate + "' ]; do sleep 0.1; done\nexec '"
                        + Path.of(System.getProperty("java.home"), "bin", "java") + "' \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        Mesh mesh = new Mesh(17, 17, 17);
        int steps = 6_000;
        Jem3dOptions options = Jem3dTesting.options(mesh, steps)
                .withNodes(3, Adapt.GROW, 0)
                .withTimeout(Duration.ofSeconds(1))
                .withCheckpoints(100, null);
        deployed(resource("late-nodes.xml"), Map.of("lateJavaHome", lateJava.toString()), 1, (d, vn) -> {
            Jem3dTesting.Lines lines = new Jem3dTesting.Lines();
            ExecutorService runner = Executors.newSingleThreadExecutor();
            try {
                Jem3dRun run = new Jem3dRun(options, lines).keepFields();
                Future<Jem3dReport> report = runner.submit(() -> run.run(d));
                Await.until(
                        Jem3dTesting.WAIT,
                        () -> report.isDone() || lines.latest != null && lines.latest.stepsDone() > 0,
                        "the run to step");
                // paused, so that it cannot end before they come on a busy machine: the late JVMs start now
                run.pause();
                Files.createFile(gate);
                Await.until(Jem3dTesting.WAIT, () -> vn.size() == 3, "the late nodes to come");
                run.resume();
                Jem3dReport r = report.get(5, TimeUnit.MINUTES);
                assertTrue(lines.lines.getFirst().startsWith("got 1 of 3 nodes asked for"), lines.lines.toString());
                assertEquals(3, r.nodes(), r.events().toString());
                assertEquals(3, r.division()[0] * r.division()[1] * r.division()[2]);
                RunEvent grew = r.events().getLast();
                assertEquals(RunEvent.Kind.GREW, grew.kind(), r.events().toString());
                assertTrue(grew.text().contains("re-divided onto 3 nodes"), grew.text());
                assertEquals(0, grew.stepsRedone(), "a node that joins costs no step");
                Jem3dTesting.assertSameRun(Jem3dTesting.sequential(mesh, steps), r);
            } finally {
                runner.shutdownNow();
            }
        });
    }

    private static void divideUsesTheTwoNodes(final Deployment d, final VirtualNode vn, final Mesh mesh) {
        Jem3dTesting.Lines lines = new Jem3dTesting.Lines();
        Jem3dOptions options = asking(mesh, Adapt.DIVIDE, 0);
        Jem3dRun.Placement p = Jem3dRun.place(options, vn, lines);
        assertEquals(2, p.nodes().size(), p.decision());
        assertEquals(mesh, p.mesh(), "divide keeps the planned mesh");
        // a cube cut once costs the same along any axis: ties go to the smallest (a, b, c)
        assertArrayEquals(new int[] {1, 1, 2}, p.division(), p.decision());
        assertTrue(
                p.decision().startsWith("got 2 of 4 nodes asked for")
                        && p.decision().contains("division 1x1x2"),
                p.decision());
        assertTrue(lines.lines.isEmpty(), "divide does not wait again: " + lines.lines);
        // the whole run, through run(Deployment), decides the same and completes
        Jem3dReport r = new Jem3dRun(options, lines).run(d);
        assertArrayEquals(new int[] {1, 1, 2}, r.division());
        assertEquals(2, r.nodes());
        assertEquals(STEPS, r.steps());
        assertTrue(lines.lines.contains(p.decision()), "the decision is told: " + lines.lines);
    }

    private static void shrinkKeepsTheCellsPerNode(final VirtualNode vn, final Mesh mesh) {
        Jem3dTesting.Lines lines = new Jem3dTesting.Lines();
        Jem3dOptions options = asking(mesh, Adapt.SHRINK, 0);
        Jem3dRun.Placement p = Jem3dRun.place(options, vn, lines);
        assertEquals(2, p.nodes().size(), p.decision());
        // 512 cells planned for 4 nodes, 128 each: half the cells for 2 nodes, 6^3 = 216 the nearest cube
        assertEquals(new Mesh(7, 7, 7), p.mesh(), p.decision());
        double perNode = (double) p.mesh().cellCount() / p.nodes().size();
        double planned = (double) mesh.cellCount() / ASKED;
        assertTrue(
                Math.abs(perNode - planned) <= 0.2 * planned,
                perNode + " cells per node, " + planned + " planned: " + p.decision());
        assertTrue(
                p.decision().contains("--adapt shrink: mesh 9x9x9 -> 7x7x7")
                        && p.decision().contains("128 cells per node planned, 108 now"),
                p.decision());
        assertArrayEquals(new int[] {1, 1, 2}, p.division(), p.decision());
        Jem3dReport r = new Jem3dRun(options, lines).run(p);
        assertEquals(new Mesh(7, 7, 7), r.mesh());
        assertEquals(6L * 6 * 6 * 6, r.tetrahedra());
        assertEquals(STEPS, r.steps());
        assertFalse(r.stoppedEarly());
        assertTrue(r.energyDrift() < 1e-10, "drift " + r.energyDrift());
    }

    private static void waitForThreeFailsNamingMinNodes(final VirtualNode vn, final Mesh mesh) {
        Jem3dTesting.Lines lines = new Jem3dTesting.Lines();
        Jem3dException e =
                assertThrows(Jem3dException.class, () -> Jem3dRun.place(asking(mesh, Adapt.WAIT, 3), vn, lines));
        assertTrue(
                e.getMessage().contains("only 2 of the 3 nodes required (--min-nodes) arrived")
                        && e.getMessage().contains("--min-nodes"),
                e.getMessage());
        assertTrue(vn.isSettled(), "local.xml with 2 JVMs can give no more than 2 nodes");
        assertEquals(List.of(), lines.lines, "no more nodes can come: it does not wait again for them");
    }

    private static void waitForTwoGoesOnWithThem(final VirtualNode vn, final Mesh mesh) {
        Jem3dTesting.Lines lines = new Jem3dTesting.Lines();
        Jem3dOptions options = asking(mesh, Adapt.WAIT, 2);
        Jem3dRun.Placement p = Jem3dRun.place(options, vn, lines);
        assertEquals(2, p.nodes().size(), p.decision());
        assertEquals(mesh, p.mesh());
        assertArrayEquals(new int[] {1, 1, 2}, p.division(), p.decision());
        assertTrue(
                p.decision().startsWith("got 2 of 4 nodes asked for")
                        && p.decision().contains("division 1x1x2"),
                p.decision());
        assertEquals(List.of(), lines.lines, "2 nodes are enough: no further wait");
        Jem3dReport r = new Jem3dRun(options, lines).run(p);
        assertEquals(STEPS, r.steps());
        assertEquals(2, r.nodes());
    }
}
