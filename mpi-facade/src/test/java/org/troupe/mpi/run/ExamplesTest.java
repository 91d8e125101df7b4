package org.troupe.mpi.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The programs under mpi-facade/examples compile against the mpi classes alone and run with mpjrun, as the README says. */
class ExamplesTest {
    @TempDir
    static Path classes;

    @BeforeAll
    static void compile() throws Exception {
        final List<String> args = new ArrayList<>(
                List.of("-cp", Path.of(MpjRun.mpiClasses().toURI()).toString(), "-d", classes.toString()));
        try (Stream<Path> sources = Files.list(Path.of("examples"))) {
            sources.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
        }
        final ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        assertEquals(
                0,
                ToolProvider.getSystemJavaCompiler().run(null, diagnostics, diagnostics, args.toArray(new String[0])),
                diagnostics.toString(StandardCharsets.UTF_8));
    }

    /** Runs mpjrun; returns its standard output, failing with its error output if it did not exit 0. */
    private static String mpjrun(final String... args) throws Exception {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final List<String> all = new ArrayList<>(List.of(args));
        all.addAll(2, List.of("-cp", classes.toString()));
        final int status = MpjRun.run(
                all.toArray(new String[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void sendMessages() throws Exception {
        final String out = mpjrun("-np", "3", "SendMessages");
        for (final int r : new int[] {1, 2}) {
            assertTrue(out.contains("rank " + r + " got: Hello rank " + r + ", from rank 0\n"), out);
            assertTrue(out.contains("rank 0 got from rank " + r + ": Greetings from rank " + r + "\n"), out);
        }
    }

    @Test
    void pingPong() throws Exception {
        final String out = mpjrun("-np", "2", "PingPong", "50");
        for (final int bytes : new int[] {1, 16, 256, 4096, 65_536, 1_048_576}) {
            assertTrue(out.matches("(?s).*\\s" + bytes + " bytes: .* us .* MB/s\n.*"), out);
        }
    }

    @Test
    void jacobiDoesNotDependOnTheRanks() throws Exception {
        final String alone = mpjrun("-np", "1", "Jacobi", "32", "200");
        assertTrue(alone.startsWith("Jacobi 32x32, 200 steps: largest change "), alone);
        assertEquals(alone, mpjrun("-np", "3", "Jacobi", "32", "200"));
        assertEquals(alone, mpjrun("-np", "4", "Jacobi", "32", "200"));
    }

    @Test
    void mandelbrotDoesNotDependOnTheRanks() throws Exception {
        final String alone = mpjrun("-np", "1", "Mandelbrot");
        assertTrue(alone.contains("checksum "), alone);
        assertTrue(alone.contains("@@@"), alone);
        assertEquals(alone, mpjrun("-np", "4", "Mandelbrot"));
    }

    @Test
    void waitanyResultsTakesEachShareOnceWithRequestNullInTheArray() throws Exception {
        for (final String np : new String[] {"1", "4"}) {
            final String out = mpjrun("-np", np, "WaitanyResults");
            assertTrue(
                    out.contains("all " + np + " shares in; Waitany over null requests gives index MPI.UNDEFINED\n"),
                    out);
            assertTrue(out.contains("sum of squares of 1..3000000 = 9000004500000500000\n"), out);
        }
    }

    @Test
    void particleVectorGathersVectorsOfRecordsAsObjects() throws Exception {
        for (final String np : new String[] {"1", "3"}) {
            final String out = mpjrun("-np", np, "ParticleVector");
            assertTrue(out.contains("1200 particles from " + np + " ranks; centre of mass (19.5000, 14.5083)\n"), out);
        }
    }
}
