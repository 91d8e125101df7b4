package org.troupe.bench.nozzle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.troupe.bench.BenchFailure;
import org.troupe.bench.JvmFlags;
import org.troupe.bench.ResultSink;
import org.troupe.bench.Suite;

/**
 * Nozzle's axisymmetric model on its default grid, a fixed number of iterations timed inside the program after as
 * many to warm up (JVM start, class loading and compilation left out), on 1, 2 (and 4) ranks as threads and as
 * JVMs, each run a few times: the median.
 */
public final class NozzleSuite implements Suite {
    static final String AXI = "axi";
    private static final Pattern TIMED = Pattern.compile("timed: (\\d+) iterations of (\\d+) cells in ([0-9.]+) s");

    @Override
    public String name() {
        return "nozzle";
    }

    @Override
    public String summary() {
        return "Nozzle's axisymmetric solver (an MPI program) on 1, 2 (and 4) ranks, as threads and as JVMs";
    }

    @Override
    public List<String> cases() {
        return List.of(AXI);
    }

    @Override
    public void run(final boolean quick, final List<String> cases, final ResultSink sink) throws BenchFailure {
        final int iterations = quick ? 3000 : 6000; // each rank's classes compile apart: a long warm-up
        final int runs = quick ? 3 : 5;
        final int[] ranks = quick ? new int[] {1, 2} : new int[] {1, 2, 4};
        for (final String mode : List.of("threads", "jvm")) {
            for (final int np : ranks) {
                if (mode.equals("jvm") && np == 1) {
                    continue; // one rank in a JVM of its own is the threads figure plus a process
                }
                System.err.println("nozzle: axi, " + np + " rank" + (np == 1 ? "" : "s") + " as " + mode + ", " + runs
                        + " runs of " + iterations + " iterations");
                final double[] seconds = new double[runs];
                int cells = 0;
                for (int r = 0; r < runs; r++) {
                    final Matcher m = TIMED.matcher(run(np, mode, iterations));
                    if (!m.find()) {
                        throw new BenchFailure("nozzle on " + np + " ranks (" + mode + ") printed no timing");
                    }
                    cells = Integer.parseInt(m.group(2));
                    seconds[r] = Double.parseDouble(m.group(3));
                }
                Arrays.sort(seconds);
                sink.accept(new NozzleFigure(AXI, np, mode, cells, iterations, seconds[runs / 2]));
            }
        }
    }

    /** Runs Nozzle through mpjrun as a process of its own; returns its standard output. */
    private static String run(final int np, final String mode, final int iterations) throws BenchFailure {
        final List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(JvmFlags.inherited());
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                "org.troupe.mpi.run.MpjRun",
                "-np",
                String.valueOf(np),
                "-dev",
                mode,
                "-cp",
                nozzleClasses(),
                "org.troupe.apps.nozzle.Nozzle",
                "--model",
                "axi",
                "--iterations",
                String.valueOf(iterations)));
        try {
            final Process p = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            try {
                final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    throw new BenchFailure("nozzle on " + np + " ranks (" + mode + ") failed: " + out);
                }
                return out;
            } finally {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        } catch (IOException e) {
            throw new BenchFailure("cannot run nozzle: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailure("interrupted");
        }
    }

    /** Where Nozzle's classes are, for mpjrun's -cp: the application is loaded apart, as its users run it. */
    private static String nozzleClasses() throws BenchFailure {
        final Path classes = Path.of(System.getProperty("troupe.home", "."), "apps", "nozzle", "target", "classes");
        if (!Files.isDirectory(classes.resolve("org/troupe/apps/nozzle"))) {
            throw new BenchFailure("Nozzle's classes are not at " + classes.toAbsolutePath() + ": build Troupe first"
                    + " (bin/bench does), and run bin/bench from the project's directory");
        }
        return classes.toString();
    }
}
