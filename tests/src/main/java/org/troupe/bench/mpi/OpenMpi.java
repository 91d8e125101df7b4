package org.troupe.bench.mpi;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.troupe.bench.BenchFailure;

/** The suite's programs in C over Open MPI, when it is installed: compiled with mpicc, run with mpirun. */
final class OpenMpi {
    private static final long RUN_TIMEOUT_SECONDS = 300;

    private OpenMpi() {}

    /** The compiled program, or null (and a note on stderr) when mpicc or mpirun is missing. */
    static Path compile() throws BenchFailure {
        if (!onPath("mpicc") || !onPath("mpirun")) {
            System.err.println("mpi: mpicc or mpirun not found: no Open MPI rows (apt-get install openmpi-bin"
                    + " libopenmpi-dev)");
            return null;
        }
        try {
            final Path dir = Files.createTempDirectory("troupe-mpi-c");
            dir.toFile().deleteOnExit();
            final Path source = dir.resolve("mpi_bench.c");
            try (InputStream in = OpenMpi.class.getResourceAsStream("mpi_bench.c")) {
                if (in == null) {
                    throw new BenchFailure("mpi_bench.c is missing from the bench's resources");
                }
                Files.copy(in, source);
            }
            final Path exe = dir.resolve("mpi_bench");
            source.toFile().deleteOnExit();
            exe.toFile().deleteOnExit();
            final List<String> out = exec(List.of("mpicc", "-O2", "-o", exe.toString(), source.toString()));
            if (!Files.isExecutable(exe)) {
                throw new BenchFailure("mpicc did not compile mpi_bench.c: " + String.join("\n", out));
            }
            return exe;
        } catch (IOException e) {
            throw new BenchFailure("compiling mpi_bench.c: " + e.getMessage(), e);
        }
    }

    /** Rank 0's lines ({@code bytes median_us p99_us}) of one case on {@code np} ranks. */
    static List<String> run(
            final Path exe, final int np, final boolean tcp, final String benchCase, final boolean quick)
            throws BenchFailure {
        final List<String> command = new ArrayList<>(List.of("mpirun", "-np", String.valueOf(np)));
        if (tcp) {
            command.addAll(List.of("--mca", "btl", "tcp,self"));
        }
        command.addAll(List.of(exe.toString(), benchCase, quick ? "1" : "0"));
        final List<String> lines = new ArrayList<>();
        for (final String l : exec(command)) {
            if (l.matches("\\d+ [0-9.]+ [0-9.]+")) {
                lines.add(l);
            }
        }
        if (lines.isEmpty()) {
            throw new BenchFailure(
                    "Open MPI's " + benchCase + " printed no figures: " + String.join(" | ", exec(command)));
        }
        return lines;
    }

    private static List<String> exec(final List<String> command) throws BenchFailure {
        final ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        // mpirun refuses to run as root (as CI does) unless told that it is meant.
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        try {
            final Process p = pb.start();
            final byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new BenchFailure(String.join(" ", command) + " did not end within " + RUN_TIMEOUT_SECONDS + " s");
            }
            return List.of(new String(out, StandardCharsets.UTF_8).split("\\n"));
        } catch (IOException e) {
            throw new BenchFailure(String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailure("interrupted", e);
        }
    }

    private static boolean onPath(final String program) {
        final String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (final String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
