package org.troupe.apps.jem3d;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.troupe.core.ActiveObjects;
import org.troupe.core.CoreConfig;
import org.troupe.core.TroupeRuntime;

/** Subdomains and the collector as active objects in this JVM: the exchange protocol, without a network. */
class SubdomainsInOneJvmTest {
    private static TroupeRuntime runtime;

    @BeforeAll
    static void start() {
        // nothing allowed: Jem3D's classes come in through Jem3dWireClasses
        runtime = TroupeRuntime.start(CoreConfig.builder().build());
    }

    @AfterAll
    static void stop() {
        runtime.shutdown();
    }

    static Jem3dReport run(final Mesh mesh, final int steps, final int[] division) {
        return run(new Jem3dRun(options(mesh, steps), new Jem3dRun.Listener() {}), mesh, division);
    }

    static Jem3dOptions options(final Mesh mesh, final int steps) {
        return Jem3dOptions.defaults(null).withMesh(mesh).withSteps(steps);
    }

    static Jem3dReport run(final Jem3dRun run, final Mesh mesh, final int[] division) {
        return run.keepFields().run(new Jem3dRun.Placement(List.of(runtime.defaultNode()), mesh, division, "test"));
    }

    @Test
    void aStoppedSequentialRunStopsToo() throws Exception {
        // a lone subdomain waits for no neighbour: it must still read its control requests every step
        stoppedRun(new int[] {1, 1, 1});
    }

    @Test
    void aStoppedRunEndsEverySubdomainAfterTheSameStep() throws Exception {
        stoppedRun(new int[] {2, 2, 1});
    }

    /** A message that breaks the protocol ends the run with an error naming the subdomain, instead of a hang. */
    @Test
    void aBorderMessageOutOfProtocolFailsTheRun() throws Exception {
        assertBorderMessagesFail("got 5 values of E", new double[5]);
    }

    @Test
    void aBorderMessageSentTwiceFailsTheRun() throws Exception {
        double[] values = new double[3 * 2 * 11 * 11]; // the interface's 242 faces
        assertBorderMessagesFail("twice", values, values);
    }

    /**
     * Subdomain 1 of a 2x1x1 division, started alone (its neighbour is never started, so it waits at step 0 for
     * border values only the test sends): the test's messages must fail the run with {@code expected}.
     */
    private static void assertBorderMessagesFail(final String expected, final double[]... messages) throws Exception {
        Mesh mesh = new Mesh(12, 12, 12);
        List<Block> blocks = Block.divide(mesh, new int[] {2, 1, 1});
        double dt = mesh.timeStep(0.5);
        Subdomain[] subdomains = new Subdomain[2];
        for (Block b : blocks) {
            subdomains[b.index()] = ActiveObjects.newActive(
                    Subdomain.class,
                    new Object[] {new SubdomainPlan(mesh, b, dt, CavityMode.defaultMode(), 1_000_000, 0)},
                    runtime.defaultNode());
        }
        Collector collector = ActiveObjects.newActive(Collector.class, new Object[0], runtime.defaultNode());
        try {
            subdomains[1].connect(new Subdomain[] {subdomains[0], null, null, null, null, null}, collector, null);
            collector.attach(new Subdomain[] {subdomains[1]}, 1_000_000);
            subdomains[1].start();
            for (double[] values : messages) {
                subdomains[1].borderE(0, 0, values);
            }
            String failure = failureOf(collector);
            assertTrue(failure.startsWith("subdomain 1 [1, 0, 0]") && failure.contains(expected), failure);
        } finally {
            for (Object o : List.of(subdomains[0], subdomains[1], collector)) {
                ActiveObjects.terminate(o);
            }
        }
    }

    private static String failureOf(final Collector collector) throws InterruptedException {
        RunStatus status = collector.status();
        for (int i = 0; i < 100 && status.failure() == null; i++) {
            Thread.sleep(50);
            status = collector.status();
        }
        return String.valueOf(status.failure());
    }

    private static void stoppedRun(final int[] division) throws Exception {
        Mesh mesh = new Mesh(16, 16, 16);
        AtomicInteger seen = new AtomicInteger();
        Jem3dRun[] holder = new Jem3dRun[1];
        holder[0] = new Jem3dRun(options(mesh, 100_000), new Jem3dRun.Listener() {
            @Override
            public void progress(final RunStatus status) {
                if (status.stepsDone() >= 5 && seen.getAndIncrement() == 0) {
                    holder[0].stop();
                }
            }
        });
        Jem3dReport stopped = run(holder[0], mesh, division);
        assertTrue(stopped.stoppedEarly(), "stopped after " + stopped.steps());
        assertTrue(stopped.steps() >= 5 && stopped.steps() < 100_000, "steps " + stopped.steps());
        assertEquals(stopped.steps(), stopped.energies().length);
        Jem3dReport plain = run(mesh, stopped.steps(), new int[] {1, 1, 1});
        assertArrayEquals(
                BlockFields.assemble(mesh, plain.fields())[0],
                BlockFields.assemble(mesh, stopped.fields())[0],
                0.0,
                "a stopped run's fields are those of a run of as many steps");
    }

    @Test
    void aPausedRunStaysAndThenGoesOnToTheSameFields() throws Exception {
        Mesh mesh = new Mesh(14, 12, 10);
        int[] division = {1, 2, 2};
        int steps = 3000;
        CountDownLatch paused = new CountDownLatch(1);
        List<RunStatus> whilePaused = new CopyOnWriteArrayList<>();
        Jem3dRun[] holder = new Jem3dRun[1];
        holder[0] = new Jem3dRun(options(mesh, steps), new Jem3dRun.Listener() {
            @Override
            public void progress(final RunStatus status) {
                if (paused.getCount() == 1 && whilePaused.isEmpty()) {
                    holder[0].pause();
                    whilePaused.add(status);
                } else if (status.paused() && paused.getCount() == 1) {
                    whilePaused.add(status);
                    if (whilePaused.size() == 6) {
                        paused.countDown();
                        holder[0].resume();
                    }
                }
            }
        });
        Jem3dReport resumed = run(holder[0], mesh, division);
        assertEquals(0, paused.getCount(), "the run was seen paused: " + whilePaused);
        List<RunStatus> held = whilePaused.subList(2, 6);
        assertTrue(
                held.stream().allMatch(s -> s.stepsDone() == held.getFirst().stepsDone() && s.stepsDone() < steps),
                "no step is made while paused: " + whilePaused);
        assertEquals(steps, resumed.steps());
        Jem3dReport plain = run(mesh, steps, new int[] {1, 1, 1});
        assertArrayEquals(
                BlockFields.assemble(mesh, plain.fields())[1], BlockFields.assemble(mesh, resumed.fields())[1], 0.0);
    }

    @Test
    void everyDivisionGivesTheSequentialFieldsBitForBit() {
        Mesh mesh = new Mesh(8, 7, 9);
        Jem3dReport sequential = run(mesh, 12, new int[] {1, 1, 1});
        double[][] expected = BlockFields.assemble(mesh, sequential.fields());
        for (int[] division :
                List.of(new int[] {2, 1, 1}, new int[] {2, 2, 1}, new int[] {1, 2, 3}, new int[] {3, 2, 2})) {
            Jem3dReport divided = run(mesh, 12, division);
            double[][] actual = BlockFields.assemble(mesh, divided.fields());
            assertArrayEquals(expected[0], actual[0], 0.0, "E of division " + Division.format(division));
            assertArrayEquals(expected[1], actual[1], 0.0, "H of division " + Division.format(division));
            assertEquals(12, divided.steps());
            assertEquals(sequential.errorE(), divided.errorE(), 1e-14);
            assertTrue(divided.energyDrift() < 1e-12, "drift " + divided.energyDrift());
        }
    }
}
