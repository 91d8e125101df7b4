package org.troupe.tests.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.tests.mpi.MpjRunCommand;

/**
 * mpjrun -descriptor: the MPI facade's conformance programs with each rank in a JVM a deployment descriptor started,
 * forked on this host (descriptors/local.xml), over SSH (descriptors/ssh.xml, a real sshd on 127.0.0.1, the class
 * path staged) or as the tasks of a Slurm job (descriptors/slurm.xml, a one-node Slurm cluster of this host); a failing rank or a lost node JVM ends the job with a non-zero status, and no JVM is left behind.
 */
class MpjRunDescriptorTest {
    /** The mpi module's test programs (conformance and failure cases), compiled by its build before this one runs. */
    private static final Path PROGRAMS =
            Path.of("..", "mpi-facade", "target", "test-classes").toAbsolutePath();
    /** Nozzle, the MPI flow solver. */
    private static final Path NOZZLE =
            Path.of("..", "apps", "nozzle", "target", "classes").toAbsolutePath();

    private static final Path LOCAL = Path.of("..", "descriptors", "local.xml");
    private static final Path SSH = Path.of("..", "descriptors", "ssh.xml");
    private static final Path SLURM = Path.of("..", "descriptors", "slurm.xml");

    @TempDir
    static Path dir;

    private static Sshd sshd;

    @BeforeAll
    static void start() throws Exception {
        sshd = Sshd.start(dir.resolve("sshd"), dir.resolve("user/id_ed25519"));
    }

    @AfterAll
    static void stop() {
        if (sshd != null) {
            sshd.close();
        }
    }

    record Outcome(int exit, String out, String err) {}

    /**
     * Runs mpjrun with these JVM options; the program's class path carries a directory of this run's own, which the
     * command lines of the node JVMs name, so that what is left of them can be found.
     */
    private static Outcome mpjrun(final String run, final List<String> options, final String... args)
            throws IOException, InterruptedException {
        final Path marker = Files.createDirectories(dir.resolve(run));
        final List<String> all = new ArrayList<>(List.of(args));
        all.addAll(
                all.indexOf("-cp") + 1,
                List.of(String.join(File.pathSeparator, PROGRAMS.toString(), NOZZLE.toString(), marker.toString())));
        final List<String> command = MpjRunCommand.of(options, all);
        final Process p = new ProcessBuilder(command)
                .redirectOutput(marker.resolve("out.txt").toFile())
                .redirectError(marker.resolve("err.txt").toFile())
                .start();
        try {
            assertTrue(p.waitFor(150, TimeUnit.SECONDS), "mpjrun " + String.join(" ", args) + " ended");
            final Outcome o = new Outcome(
                    p.exitValue(),
                    Files.readString(marker.resolve("out.txt"), StandardCharsets.UTF_8),
                    Files.readString(marker.resolve("err.txt"), StandardCharsets.UTF_8));
            assertTrue(nodeJvmsOf(marker).isEmpty(), "node JVMs left: " + nodeJvmsOf(marker) + "\n" + o.err());
            removeKeptLogs(o.err());
            return o;
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    private static final Pattern KEPT_LOGS = Pattern.compile("mpjrun: the node JVMs' logs are kept in (\\S+)/logs");

    /** Removes the work directories whose logs a failed job kept (mpjrun says where), once they were seen there. */
    private static void removeKeptLogs(final String err) throws IOException {
        final Matcher kept = KEPT_LOGS.matcher(err);
        while (kept.find()) {
            final Path work = Path.of(kept.group(1));
            assertTrue(Files.isDirectory(work.resolve("logs")), work + "/logs, where mpjrun says the logs are");
            Leftovers.deleteTree(work);
        }
    }

    /** Node JVMs still running that name {@code marker}, after the grace a stopped JVM takes to go. */
    private static List<String> nodeJvmsOf(final Path marker) throws InterruptedException {
        List<String> left = List.of();
        for (int i = 0; i < 100; i++) {
            left = ProcessHandle.allProcesses()
                    .map(Leftovers::commandLine)
                    .filter(c -> c.contains("NodeMain") && c.contains(marker.toString()))
                    .toList();
            if (left.isEmpty()) {
                break;
            }
            Thread.sleep(100);
        }
        return left;
    }

    /** -ppn 2: two ranks per node JVM, placed in blocks, each with its own output, the descriptor bringing two JVMs. */
    @Test
    void severalRanksPerNodeJvmRunInBlocksAndPassTheConformancePrograms() throws Exception {
        final Outcome placed = mpjrun(
                "placement",
                List.of(),
                "-np",
                "4",
                "-descriptor",
                LOCAL.toString(),
                "-ppn",
                "2",
                "-tag-output",
                "-cp",
                "org.troupe.mpi.programs.Placement",
                "print");
        assertEquals(0, placed.exit(), placed.out() + placed.err());
        final Map<Integer, String> pids = new TreeMap<>();
        final Matcher m =
                Pattern.compile("\\[(\\d)\\] rank \\1 of 4 on \\S+ pid (\\d+)").matcher(placed.out());
        while (m.find()) {
            pids.put(Integer.parseInt(m.group(1)), m.group(2));
        }
        assertEquals(4, pids.size(), placed.out());
        assertEquals(pids.get(0), pids.get(1), placed.out());
        assertEquals(pids.get(2), pids.get(3), placed.out());
        assertTrue(!pids.get(0).equals(pids.get(2)), placed.out());
        final Outcome o = mpjrun(
                "hybrid-collectives",
                List.of(),
                "-np",
                "4",
                "-descriptor",
                LOCAL.toString(),
                "-ppn",
                "2",
                "-cp",
                "org.troupe.mpi.conformance.Collectives");
        assertEquals(0, o.exit(), o.out() + o.err());
    }

    @Test
    void theConformanceProgramsPassWithTheRanksOnTheDescriptorsJvms() throws Exception {
        for (final String program : List.of("PointToPoint", "Collectives")) {
            final Outcome o = mpjrun(
                    program,
                    List.of("-Djvms=3"),
                    "-np",
                    "3",
                    "-descriptor",
                    LOCAL.toString(),
                    "-cp",
                    "org.troupe.mpi.conformance." + program);
            assertEquals(0, o.exit(), o.out() + o.err());
        }
    }

    @Test
    void theRanksOutputComesHomeTagged() throws Exception {
        final Outcome o = mpjrun(
                "hello",
                List.of("-Djvms=2"),
                "-np",
                "2",
                "-descriptor",
                LOCAL.toString(),
                "-tag-output",
                "-cp",
                "org.troupe.mpi.programs.Hello",
                "bye");
        assertEquals(0, o.exit(), o.err());
        assertTrue(o.out().contains("[0] hello from 0 of 2 bye"), o.out());
        assertTrue(o.out().contains("[1] hello from 1 of 2 bye"), o.out());
    }

    /** The ranks see mpjrun's system properties, as in the other modes (and local.xml starts a JVM per rank). */
    @Test
    void theRanksSeeMpjrunsSystemProperties() throws Exception {
        final Outcome o = mpjrun(
                "options",
                List.of("-Dmy.param=42"),
                "-np",
                "3",
                "-descriptor",
                LOCAL.toString(),
                "-cp",
                "org.troupe.mpi.programs.JvmCases",
                "options");
        assertEquals(0, o.exit(), o.err());
        for (int r = 0; r < 3; r++) {
            assertTrue(o.out().contains("rank " + r + " my.param=42"), o.out());
        }
    }

    /** Nozzle, the MPI flow solver, on the descriptor's JVMs: the axisymmetric flow converges, its pictures come. */
    @Test
    void nozzleRunsOnTheDescriptorsJvms() throws Exception {
        final Path plots = dir.resolve("nozzle-plots");
        final Outcome o = mpjrun(
                "nozzle",
                List.of(),
                "-np",
                "2",
                "-descriptor",
                LOCAL.toString(),
                "-cp",
                "org.troupe.apps.nozzle.Nozzle",
                "--model",
                "axi",
                "--cells",
                "60x12",
                "--plot",
                plots.toString());
        assertEquals(0, o.exit(), o.out() + o.err());
        assertTrue(o.out().contains("nozzle: axi, isentropic, 60x12 cells on 2 ranks"), o.out());
        assertTrue(Files.isRegularFile(plots.resolve("mach.png")), o.out());
    }

    @Test
    void aFailingRankEndsTheJob() throws Exception {
        final Outcome o = mpjrun(
                "failing",
                List.of("-Djvms=3"),
                "-np",
                "3",
                "-descriptor",
                LOCAL.toString(),
                "-cp",
                "org.troupe.mpi.programs.FailingRank");
        assertEquals(1, o.exit(), o.out() + o.err());
        assertTrue(o.err().contains("mpjrun: rank 1 of 3: java.lang.IllegalStateException: boom in rank 1"), o.err());
    }

    @Test
    void aLostNodeJvmEndsTheJob() throws Exception {
        final Outcome o = mpjrun(
                "lost",
                List.of("-Djvms=3"),
                "-np",
                "3",
                "-descriptor",
                LOCAL.toString(),
                "-cp",
                "org.troupe.mpi.programs.LostRank");
        assertEquals(1, o.exit(), o.out() + o.err());
        assertTrue(o.err().contains("mpjrun: rank 1 of 3: its JVM was lost"), o.err());
    }

    /** A System.exit in a node JVM: its status decides, as a forked rank JVM's does. */
    @Test
    void aSystemExitEndsTheRankWithItsStatus() throws Exception {
        final Outcome before = mpjrun(
                "exit-before",
                List.of(),
                "-np",
                "3",
                "-descriptor",
                LOCAL.toString(),
                "-cp",
                "org.troupe.mpi.programs.ExitingRank",
                "exit",
                "3");
        assertEquals(3, before.exit(), "mpjrun exits with the rank's status: " + before.out() + before.err());
        assertTrue(
                KEPT_LOGS.matcher(before.err()).find(),
                "a failed job keeps its node JVMs' logs, and says where, as bin/deploy does: " + before.err());
        assertTrue(
                before.err()
                        .contains("mpjrun: rank 1 of 3: called System.exit(3) (at"
                                + " org.troupe.mpi.programs.ExitingRank.main(ExitingRank.java:"),
                before.err());
        final Outcome failedAfter = mpjrun(
                "exit-after",
                List.of(),
                "-np",
                "3",
                "-descriptor",
                LOCAL.toString(),
                "-cp",
                "org.troupe.mpi.programs.ExitingRank",
                "finalize-then-exit",
                "3");
        assertEquals(3, failedAfter.exit(), failedAfter.out() + failedAfter.err());
        assertTrue(failedAfter.err().contains("mpjrun: rank 1 of 3: called System.exit(3) (at "), failedAfter.err());
        assertTrue(
                failedAfter.out().contains("rank 0 done") && failedAfter.out().contains("rank 2 done"),
                "a rank that fails after MPI.Finalize aborted the others: " + failedAfter.out() + failedAfter.err());
        final Outcome fine = mpjrun(
                "exit-zero",
                List.of(),
                "-np",
                "3",
                "-descriptor",
                LOCAL.toString(),
                "-cp",
                "org.troupe.mpi.programs.ExitingRank",
                "finalize-then-exit",
                "0");
        assertEquals(0, fine.exit(), fine.out() + fine.err());
        assertTrue(fine.out().contains("rank 0 done") && fine.out().contains("rank 2 done"), fine.out());
    }

    @Test
    void tooFewJvmsForTheRanksIsSaidBeforeAnythingRuns() throws Exception {
        final Outcome o = mpjrun(
                "few",
                List.of("-Djvms=2"),
                "-np",
                "3",
                "-descriptor",
                LOCAL.toString(),
                "-timeout",
                "30",
                "-cp",
                "org.troupe.mpi.programs.Hello");
        assertEquals(2, o.exit(), o.out() + o.err());
        assertTrue(o.err().contains("gave 2 JVMs, and -np 3 needs one per rank"), o.err());
        assertTrue(o.err().contains("JAVA_OPTS=-Djvms=3"), o.err());
        assertTrue(o.err().contains("workers: 2/2 nodes"), o.err());
        assertEquals("", o.out());
    }

    /** JVMs that cannot start: their cause comes first, not advice to map more JVMs. */
    @Test
    void jvmsThatFailToStartAreSaidFirstWithTheirCause() throws Exception {
        final Outcome o = mpjrun(
                "bad-heap",
                List.of("-Djvms=2", "-Dheap=512q"),
                "-np",
                "2",
                "-descriptor",
                LOCAL.toString(),
                "-timeout",
                "60",
                "-cp",
                "org.troupe.mpi.programs.Hello");
        assertEquals(2, o.exit(), o.out() + o.err());
        final String first =
                o.err().lines().filter(l -> l.startsWith("mpjrun:")).findFirst().orElse("");
        assertTrue(first.contains("gave 0 of the 2 JVMs -np 2 needs: some failed to start"), o.err());
        assertTrue(o.err().contains("Invalid maximum heap size"), o.err());
        assertFalse(o.err().contains("map more JVMs"), o.err());
    }

    @Test
    void theRanksRunInTheTasksOfASlurmJob() throws Exception {
        try (SlurmCluster slurm = SlurmCluster.start(dir.resolve("slurm"))) {
            final Outcome o = mpjrun(
                    "slurm",
                    List.of("-Dtasks=2"),
                    "-np",
                    "2",
                    "-descriptor",
                    SLURM.toString(),
                    "-cp",
                    "org.troupe.mpi.conformance.Collectives");
            assertEquals(0, o.exit(), o.out() + o.err());
            SlurmCluster.assertNoJobs();
        }
    }

    @Test
    void theRanksRunOnJvmsStartedOverSsh() throws Exception {
        final Outcome o = mpjrun(
                "ssh",
                List.of(
                        "-Dtroupe.deploy.sshDir=" + dir.resolve("ssh-dir"),
                        "-Dhost=127.0.0.1",
                        "-Dport=" + sshd.port(),
                        "-Dkey=" + dir.resolve("user/id_ed25519"),
                        "-DknownHosts=accept-new",
                        "-Dstage=true",
                        "-Djvms=2"),
                "-np",
                "2",
                "-descriptor",
                SSH.toString(),
                "-tag-output",
                "-cp",
                "org.troupe.mpi.conformance.Collectives");
        assertEquals(0, o.exit(), o.out() + o.err());
    }
}
