package org.troupe.tests.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/mpjjavac as the README has MPI users compile: with the JDK the launchers found, not the javac first on the
 * PATH, the mpi package on the class path and the user's own class path after it; then bin/mpjrun runs the result.
 */
class MpjJavacTest {
    private static final Path HOME = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    @Test
    void compilesWithTheLaunchersJdkAndTheUsersClassPath() throws Exception {
        // An older javac first on the PATH, as on a machine whose default Java is 17: it must not be the one used.
        final Path fakeBin = Files.createDirectories(dir.resolve("fake-bin"));
        final Path javac = fakeBin.resolve("javac");
        Files.writeString(javac, "#!/bin/sh\necho 'the javac on the PATH ran' >&2\nexit 3\n");
        assertTrue(javac.toFile().setExecutable(true));
        final Map<String, String> env = Map.of("PATH", fakeBin + ":" + System.getenv("PATH"));

        final Path lib = dir.resolve("lib");
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("src/Greeting.java"),
                "public class Greeting { public static String of(int r) { return \"greeting from rank \" + r; } }\n");
        final Run library = run(
                env,
                List.of(
                        "bin/mpjjavac",
                        "-d",
                        lib.toString(),
                        dir.resolve("src/Greeting.java").toString()));
        assertEquals(0, library.exit(), library.toString());

        final Path classes = dir.resolve("classes");
        Files.writeString(dir.resolve("src/Greet.java"), """
                import mpi.*;
                public class Greet {
                    public static void main(String[] args) throws Exception {
                        MPI.Init(args);
                        System.out.println(Greeting.of(MPI.COMM_WORLD.Rank()));
                        MPI.Finalize();
                    }
                }
                """);
        final Run compiled = run(
                env,
                List.of(
                        "bin/mpjjavac",
                        "-cp",
                        lib.toString(),
                        "-d",
                        classes.toString(),
                        dir.resolve("src/Greet.java").toString()));
        assertEquals(0, compiled.exit(), compiled.toString());
        assertTrue(Files.isRegularFile(classes.resolve("Greet.class")), compiled.toString());

        final Run ran = run(env, List.of("bin/mpjrun", "-np", "2", "-cp", classes + ":" + lib, "Greet"));
        assertEquals(0, ran.exit(), ran.toString());
        assertTrue(
                ran.out().contains("greeting from rank 0") && ran.out().contains("greeting from rank 1"),
                ran.toString());
    }

    @Test
    void aCallWithoutSourcesSaysWhatItNeeds() throws Exception {
        final Run r = run(Map.of(), List.of("bin/mpjjavac"));
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("mpjjavac: names no source file: bin/mpjjavac -d DIR Program.java"), r.toString());
    }

    private Run run(final Map<String, String> env, final List<String> command)
            throws IOException, InterruptedException {
        final Path out = Files.createTempFile(dir, "out", ".txt");
        final Path err = Files.createTempFile(dir, "err", ".txt");
        final ProcessBuilder pb = new ProcessBuilder(command)
                .directory(HOME.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().putAll(env);
        final Process p = pb.start();
        try {
            assertTrue(p.waitFor(180, TimeUnit.SECONDS), String.join(" ", command) + " ended");
            return new Run(
                    p.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }
}
