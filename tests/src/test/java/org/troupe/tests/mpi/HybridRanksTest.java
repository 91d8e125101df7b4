package org.troupe.tests.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.troupe.core.CoreConfig;

/**
 * mpjrun -dev hybrid: the MPI facade's conformance programs with several ranks per JVM (threads of it, linked by its
 * mailboxes, and to the other JVMs' ranks by the core's transport); ranks placed in blocks; a JVM killed mid-run ends
 * the job naming its ranks and leaves no JVM behind.
 */
class HybridRanksTest {
    /** The mpi module's test programs (conformance and failure cases), compiled by its build before this one runs. */
    private static final Path PROGRAMS = Path.of("..", "mpi-facade", "target", "test-classes");

    private static final Pattern PLACED = Pattern.compile("rank (\\d+) of (\\d+) on (\\S+) pid (\\d+)");

    @TempDir
    Path dir;

    record Outcome(int exit, String out, String err) {}

    /** mpjrun with {@code args}, its output and errors to those files, its standard input empty. */
    private static Process start(final Path out, final Path err, final String... args) throws IOException {
        final ProcessBuilder pb = new ProcessBuilder(MpjRunCommand.of(List.of(), List.of(args)));
        // The ranks' JVMs take the transport this run tests (the build's second run is over TCP) from mpjrun's.
        pb.environment().put("TROUPE_CORE_TRANSPORT", System.getProperty(CoreConfig.TRANSPORT_PROP_NAME, "auto"));
        return pb.redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
    }

    /** mpjrun's arguments for {@code program} (a main class and its arguments) as 4 ranks in 2 JVMs. */
    private static String[] onTwoJvmsOfTwoRanks(final String... program) {
        return Stream.concat(
                        Stream.of("-np", "4", "-dev", "hybrid", "-ppn", "2", "-cp", PROGRAMS.toString()),
                        Stream.of(program))
                .toArray(String[]::new);
    }

    private Outcome mpjrun(final String... args) throws IOException, InterruptedException {
        final Process p = start(dir.resolve("out.txt"), dir.resolve("err.txt"), args);
        try {
            assertTrue(p.waitFor(180, TimeUnit.SECONDS), "mpjrun " + String.join(" ", args) + " ended");
            return new Outcome(
                    p.exitValue(),
                    Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8),
                    Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8));
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    @ParameterizedTest(name = "{0} on 2 JVMs of {1} ranks")
    @CsvSource({
        "PointToPoint, 2",
        "Collectives, 2",
        "Topologies, 2",
        "Datatypes, 2",
        "Intercomms, 2",
        "Objects, 2",
        "PointToPoint, 4",
        "Collectives, 4",
        "MpjExpressApi, 2"
    })
    void conformance(final String program, final int ppn) throws Exception {
        final Outcome o = mpjrun(
                "-np",
                String.valueOf(2 * ppn),
                "-dev",
                "hybrid",
                "-ppn",
                String.valueOf(ppn),
                "-cp",
                PROGRAMS.toString(),
                "org.troupe.mpi.conformance." + program);
        assertEquals(0, o.exit(), o.out() + o.err());
    }

    /**
     * Ranks of two JVMs send each other 48 MiB at once, both ranks of each JVM, with Sendrecv, Isend and Recv, and
     * Isend and Irecv tested in a loop: more than a link queues for a peer that does not read. The data of such a
     * message was once sent by the handler of its clearance, whose sends cannot wait for room: both JVMs queued
     * theirs, stopped reading the other's, and the job hung.
     */
    @Test
    void largeMessagesBothWaysAtOnceBetweenJvmsAllCome() throws Exception {
        final Outcome o = mpjrun(onTwoJvmsOfTwoRanks("org.troupe.mpi.programs.LargeExchange"));
        assertEquals(0, o.exit(), o.out() + o.err());
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(o.out().contains("rank " + rank + " exchanged 6291456 doubles"), o.out());
        }
    }

    /** Each rank's JVM, by its process id, and its processor name, from Placement's lines. */
    private static Map<Integer, String[]> placement(final String out) {
        final Map<Integer, String[]> ranks = new TreeMap<>();
        final Matcher m = PLACED.matcher(out);
        while (m.find()) {
            ranks.put(Integer.parseInt(m.group(1)), new String[] {m.group(3), m.group(4)});
        }
        return ranks;
    }

    @Test
    void ranksArePlacedInBlocksAndTheLastJvmTakesWhatIsLeft() throws Exception {
        final Outcome o = mpjrun(
                "-np",
                "5",
                "-dev",
                "hybdev",
                "-ppn",
                "2",
                "-tag-output",
                "-cp",
                PROGRAMS.toString(),
                "org.troupe.mpi.programs.Placement",
                "print");
        assertEquals(0, o.exit(), o.out() + o.err());
        final Map<Integer, String[]> ranks = placement(o.out());
        assertEquals(5, ranks.size(), o.out());
        final String pid0 = ranks.get(0)[1];
        final String pid1 = ranks.get(2)[1];
        final String pid2 = ranks.get(4)[1];
        assertEquals(pid0, ranks.get(1)[1], "ranks 0 and 1 share the first JVM");
        assertEquals(pid1, ranks.get(3)[1], "ranks 2 and 3 share the second JVM");
        assertEquals(3, List.of(pid0, pid1, pid2).stream().distinct().count(), "three JVMs: " + o.out());
        assertFalse(List.of(pid0, pid1, pid2)
                .contains(String.valueOf(ProcessHandle.current().pid())));
        // As MPJ Express gives it in every device: the host's name, the same for every rank of a host.
        final String host = InetAddress.getLocalHost().getHostName();
        for (final String[] r : ranks.values()) {
            assertEquals(host, r[0], o.out());
        }
        for (int r = 0; r < 5; r++) {
            assertTrue(o.out().contains("[" + r + "] rank " + r + " of 5 on "), o.out());
        }
    }

    @Test
    void aJvmKilledMidRunEndsTheJobNamingItsRanksAndLeavesNothingRunning() throws Exception {
        final Path out = dir.resolve("hang.txt");
        final Path err = dir.resolve("hang-err.txt");
        final Process p = start(out, err, onTwoJvmsOfTwoRanks("org.troupe.mpi.programs.Placement", "hang"));
        final List<ProcessHandle> jvms = new ArrayList<>();
        try {
            Map<Integer, String[]> ranks = Map.of();
            for (int i = 0; i < 1200 && ranks.size() < 4; i++) {
                Thread.sleep(50);
                ranks = placement(Files.readString(out));
            }
            assertEquals(4, ranks.size(), Files.readString(out) + Files.readString(err));
            p.descendants().forEach(jvms::add);
            final long second = Long.parseLong(ranks.get(2)[1]);
            assertEquals(
                    0,
                    new ProcessBuilder("kill", "-KILL", String.valueOf(second))
                            .start()
                            .waitFor());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "mpjrun ended");
            final String e = Files.readString(err);
            assertEquals(137, p.exitValue(), "mpjrun exits with the status of the killed JVM, as mpirun does: " + e);
            assertTrue(
                    e.contains("mpjrun: rank 2 of 4: its JVM (of ranks 2 to 3) ended with status 137 before the rank"
                            + " finished"),
                    e);
            assertTrue(
                    e.contains("mpjrun: 2 of 4 ranks failed; ranks 0, 1 stopped in an MPI call as the job was aborted"),
                    e);
            for (final ProcessHandle h : jvms) {
                h.onExit().get(10, TimeUnit.SECONDS);
                assertFalse(h.isAlive(), "JVM " + h.pid() + " was left running");
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    @Test
    void aFailingRankEndsTheJobAndItsFailureIsSaid() throws Exception {
        final Outcome o = mpjrun(
                "-np",
                "4",
                "-dev",
                "hybrid",
                "-ppn",
                "2",
                "-tag-output",
                "-cp",
                PROGRAMS.toString(),
                "org.troupe.mpi.programs.FailingRank");
        assertEquals(1, o.exit(), o.out() + o.err());
        assertTrue(
                o.err()
                        .contains("mpjrun: rank 1 of 4: java.lang.IllegalStateException: boom in rank 1\n\tat"
                                + " org.troupe.mpi.programs.FailingRank.main(FailingRank.java:"),
                o.err());
        assertEquals(1, o.err().split("boom in rank 1", -1).length - 1, "the cause is said once: " + o.err());
        assertTrue(
                o.err()
                        .contains("mpjrun: 1 of 4 ranks failed; ranks 0, 2, 3 stopped in an MPI call as the job was"
                                + " aborted"),
                o.err());
        assertFalse(o.err().contains("Caused by: org.troupe.mpi.fabric.FabricException"), o.err());
    }

    @Test
    void aBadRanksPerJvmIsRefusedWithItsFixAndNothingStarts() throws Exception {
        final Outcome zero = mpjrun(
                "-np", "4", "-dev", "hybrid", "-ppn", "0", "-cp", PROGRAMS.toString(), "org.troupe.mpi.programs.Hello");
        assertEquals(2, zero.exit(), zero.err());
        assertTrue(zero.err().contains("-ppn 0: a JVM runs at least one rank"), zero.err());
        assertEquals("", zero.out());
        final Outcome alone =
                mpjrun("-np", "4", "-ppn", "2", "-cp", PROGRAMS.toString(), "org.troupe.mpi.programs.Hello");
        assertEquals(2, alone.exit(), alone.err());
        assertTrue(alone.err().contains("give it with -dev hybrid"), alone.err());
    }
}
