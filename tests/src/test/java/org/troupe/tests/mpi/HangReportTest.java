package org.troupe.tests.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A job whose ranks hang in MPI: mpjrun says, once every rank has been blocked for -hangreport seconds, what each
 * waits in and why none can go on; and again on kill -USR1. In every mode; the test stops mpjrun and its JVMs.
 */
class HangReportTest {
    private static final Path PROGRAMS = Path.of("..", "mpi-facade", "target", "test-classes");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} in -dev {1}")
    @CsvSource({
        "cycle, threads, 3, 'rank 0: Recv from rank 1, tag 7, 1 elements, on COMM_WORLD, for',"
                + " 'ranks 0 -> 1 -> 2 -> 0 each wait for the next'",
        "cycle, jvm, 2, 'rank 1: Recv from rank 0, tag 7, 1 elements, on COMM_WORLD, for',"
                + " 'ranks 0 -> 1 -> 0 each wait for the next'",
        "cycle, hybrid, 4, 'rank 3: Recv from rank 0, tag 7, 1 elements, on COMM_WORLD, for',"
                + " 'ranks 0 -> 1 -> 2 -> 3 -> 0 each wait for the next'",
        "collectives, threads, 3, 'rank 0: Bcast (collective step #1) on COMM_WORLD, receiving from rank ',"
                + " 'on COMM_WORLD, collective step #1, the ranks are in different collectives (ranks 1, 2 in Barrier; rank 0 in Bcast)'",
        "collectives, jvm, 2, 'rank 1: Barrier (collective step #1) on COMM_WORLD, receiving from rank 0',"
                + " 'on COMM_WORLD, collective step #1, the ranks are in different collectives (rank 1 in Barrier; rank 0 in Bcast)'",
        "ended, threads, 2, 'rank 1: ended', 'rank 0 waits for rank 1, which has ended: it never will'",
        "ended, jvm, 2, 'rank 1: ended', 'rank 0 waits for rank 1, which has ended: it never will'"
    })
    void shouldSayWhatEachRankWaitsInAndWhyNoneCanGoOn(
            final String hang, final String dev, final int np, final String call, final String why) throws Exception {
        final Path err = dir.resolve("err.txt");
        final Process p = startHang(dev, np, hang);
        try {
            final String report = awaitIn(err, why, p);
            assertTrue(
                    report.contains("mpjrun: every rank still running has been blocked in MPI for 2 s or more"),
                    report);
            assertTrue(report.contains("mpjrun:   " + call), report);
            // Said once for a hang; asked for, again.
            new ProcessBuilder("kill", "-USR1", String.valueOf(p.pid())).start().waitFor();
            final String asked = awaitIn(err, "what the ranks are blocked in now", p);
            assertEquals(3, asked.split(Pattern.quote(why), -1).length, "said when found, and when asked: " + asked);
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Jobs that wait for 5 s in ways that look like a hang from one rank, or for a while: no report. */
    @ParameterizedTest(name = "{0} in -dev {1}")
    @CsvSource({"listener, threads", "listener, jvm", "last, threads", "last, jvm"})
    void shouldSayNothingOfAJobThatIsOnlySlow(final String slow, final String dev) throws Exception {
        final Process p = startHang(dev, 2, slow);
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the job ended");
            final String err = Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), err);
            assertFalse(err.contains("blocked in MPI"), err);
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** Starts mpjrun on the program Hang's case {@code hang}, -hangreport 2, its output in out.txt and err.txt. */
    private Process startHang(final String dev, final int np, final String hang) throws IOException {
        final List<String> command = MpjRunCommand.of(List.of(), List.of("-np", String.valueOf(np), "-dev", dev));
        if (dev.equals("hybrid")) {
            command.addAll(List.of("-ppn", "2"));
        }
        command.addAll(List.of("-hangreport", "2", "-cp", PROGRAMS.toString(), "org.troupe.mpi.programs.Hang", hang));
        return new ProcessBuilder(command)
                .redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve("err.txt").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .start();
    }

    /** The file's text once it holds {@code words}; fails if mpjrun ends first or a minute passes. */
    private static String awaitIn(final Path file, final String words, final Process p)
            throws IOException, InterruptedException {
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            final String text = Files.readString(file, StandardCharsets.UTF_8);
            if (text.contains(words)) {
                return text;
            }
            assertTrue(p.isAlive() && System.nanoTime() < until, "no '" + words + "' in what mpjrun said: " + text);
            Thread.sleep(100);
        }
    }
}
