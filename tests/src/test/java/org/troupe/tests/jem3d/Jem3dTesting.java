package org.troupe.tests.jem3d;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.troupe.apps.jem3d.BlockFields;
import org.troupe.apps.jem3d.Division;
import org.troupe.apps.jem3d.Jem3dOptions;
import org.troupe.apps.jem3d.Jem3dReport;
import org.troupe.apps.jem3d.Jem3dRun;
import org.troupe.apps.jem3d.Mesh;
import org.troupe.apps.jem3d.RunStatus;
import org.troupe.core.TroupeRuntime;

/** What the Jem3D tests share: a sequential reference run and the comparison of fields. */
public final class Jem3dTesting {
    public static final Path LOCAL = Path.of("../descriptors/local.xml");

    /** LOCAL's variables for {@code jvms} node JVMs of Jem3D's virtual node. */
    public static Map<String, String> localVariables(final int jvms) {
        return Map.of("jvms", String.valueOf(jvms), "vn", Jem3dRun.VIRTUAL_NODE);
    }

    public static final Duration WAIT = Duration.ofMinutes(2);

    private Jem3dTesting() {}

    /** Options for {@code steps} steps on {@code mesh}, nothing else changed from the defaults. */
    public static Jem3dOptions options(final Mesh mesh, final int steps) {
        return Jem3dOptions.defaults(LOCAL).withMesh(mesh).withSteps(steps);
    }

    /** The sequential run (one block, division 1x1x1) in this JVM, with its fields. */
    public static Jem3dReport sequential(final Mesh mesh, final int steps) {
        Jem3dReport r = new Jem3dRun(options(mesh, steps), new Jem3dRun.Listener() {})
                .keepFields()
                .run(new Jem3dRun.Placement(
                        List.of(TroupeRuntime.get().defaultNode()), mesh, new int[] {1, 1, 1}, "sequential reference"));
        assertEquals(steps, r.steps(), "the sequential reference made every step");
        return r;
    }

    /**
     * Asserts that {@code actual} (a divided run) computed exactly the sequential run's fields, the same error and
     * energies up to the order of the sums, and kept the energy.
     */
    public static void assertSameRun(final Jem3dReport sequential, final Jem3dReport actual) {
        String what = "division " + Division.format(actual.division()) + " on " + actual.nodes() + " nodes";
        Mesh mesh = sequential.mesh();
        assertEquals(mesh, actual.mesh(), what);
        assertEquals(sequential.steps(), actual.steps(), what + ": steps");
        assertEquals(sequential.dt(), actual.dt(), 0.0, what + ": dt");
        assertEquals(
                Math.toIntExact(actual.division()[0] * actual.division()[1] * actual.division()[2]),
                actual.fields().size(),
                what + ": one block of fields per subdomain");
        double[][] expected = BlockFields.assemble(mesh, sequential.fields());
        double[][] got = BlockFields.assemble(mesh, actual.fields());
        assertTrue(maxAbs(expected[0]) > 0 && maxAbs(expected[1]) > 0, "the reference fields are not all zero");
        assertArrayEquals(expected[0], got[0], 0.0, what + ": E");
        assertArrayEquals(expected[1], got[1], 0.0, what + ": H");
        // the errors and energies are sums over the subdomains, added in another order
        assertEquals(sequential.errorE(), actual.errorE(), 1e-12 * sequential.errorE(), what + ": error E");
        assertEquals(sequential.errorH(), actual.errorH(), 1e-12 * sequential.errorH(), what + ": error H");
        assertEquals(sequential.energies().length, actual.energies().length, what + ": energies");
        for (int n = 0; n < actual.energies().length; n++) {
            assertEquals(
                    sequential.energies()[n],
                    actual.energies()[n],
                    1e-12 * sequential.energies()[n],
                    what + ": energy after step " + (n + 1));
        }
        assertTrue(actual.energyDrift() < 1e-10, what + ": energy drift " + actual.energyDrift());
    }

    private static double maxAbs(final double[] a) {
        double m = 0;
        for (double x : a) {
            m = Math.max(m, Math.abs(x));
        }
        return m;
    }

    /**
     * bin/jem3d with {@code args} as a JVM of its own, its output in {@code dir} (out.txt, err.txt), with a short
     * peer timeout. It runs in a session of its own, as a shell gives a job: its process group is what a terminal's
     * Ctrl-C reaches.
     */
    public static ProcessBuilder launcher(final Path dir, final String... args) {
        List<String> command = new ArrayList<>(List.of(
                "setsid",
                // Ctrl-C as a terminal has it, even when these tests run from a script in the background (whose
                // commands, and so this JVM and its children, start with SIGINT ignored)
                "env",
                "--default-signal=INT",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--sun-misc-unsafe-memory-access=allow",
                "-Dtroupe.home=..",
                "-cp",
                System.getProperty("java.class.path"),
                "org.troupe.apps.jem3d.Jem3dMain"));
        command.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve("err.txt").toFile());
        pb.environment().put("TROUPE_CORE_HEARTBEATMILLIS", "200");
        pb.environment().put("TROUPE_CORE_PEERTIMEOUTMILLIS", "3000");
        return pb;
    }

    /** A listener that keeps every info line, and the latest progress. */
    public static class Lines implements Jem3dRun.Listener {
        public final List<String> lines = new CopyOnWriteArrayList<>();
        public volatile RunStatus latest;

        @Override
        public void info(final String line) {
            lines.add(line);
        }

        @Override
        public void progress(final RunStatus status) {
            latest = status;
        }
    }
}
