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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * mpjrun -dev jvm: the MPI facade's conformance programs with the ranks in JVMs of their own, linked by the core's
 * TCP transport; a rank that fails or whose JVM dies ends the job with a non-zero status and leaves no JVM behind.
 */
class JvmRanksTest {
    /** The mpi module's test programs (conformance and failure cases), compiled by its build before this one runs. */
    private static final Path PROGRAMS = Path.of("..", "mpi-facade", "target", "test-classes");

    @TempDir
    Path dir;

    record Outcome(int exit, String out, String err) {}

    private Outcome mpjrun(final String... args) throws IOException, InterruptedException {
        return mpjrun(List.of(), "", args);
    }

    /** Runs ExitingRank's case {@code how} as 3 rank JVMs, rank 1 being the one that does it. */
    private Outcome exitingRank(final String how) throws IOException, InterruptedException {
        return mpjrun(
                "-np", "3", "-dev", "jvm", "-cp", PROGRAMS.toString(), "org.troupe.mpi.programs.ExitingRank", how, "0");
    }

    /** Runs mpjrun with these JVM options and this standard input. */
    private Outcome mpjrun(final List<String> options, final String input, final String... args)
            throws IOException, InterruptedException {
        final List<String> command = MpjRunCommand.of(options, List.of(args));
        Files.writeString(dir.resolve("in.txt"), input);
        final Process p = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve("err.txt").toFile())
                .redirectInput(dir.resolve("in.txt").toFile())
                .start();
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "mpjrun " + String.join(" ", args) + " ended");
            return new Outcome(
                    p.exitValue(),
                    Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8),
                    Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8));
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** A setting the runtime refuses is the user's to fix: one line, no stack trace, the bad input's status. */
    @Test
    void aBadSettingEndsTheJobInOneLineWithStatus2() throws Exception {
        final Outcome o = mpjrun(
                List.of("-Dtroupe.core.transport=shmm"),
                "",
                "-np",
                "2",
                "-dev",
                "jvm",
                "-cp",
                PROGRAMS.toString(),
                "org.troupe.mpi.conformance.PointToPoint");
        assertEquals(2, o.exit(), o.err());
        assertTrue(o.err().startsWith("mpjrun: troupe.core.transport=shmm names no transport"), o.err());
        assertEquals(1, o.err().lines().count(), o.err());
    }

    @ParameterizedTest(name = "{0} on {1} JVMs")
    @CsvSource({
        "PointToPoint, 1",
        "PointToPoint, 2",
        "PointToPoint, 3",
        "Collectives, 3",
        "Collectives, 4",
        "Collectives, 8",
        "Topologies, 4",
        "Datatypes, 2",
        "Intercomms, 3",
        "Objects, 3",
        "MpjExpressApi, 3"
    })
    void conformance(final String program, final int np) throws Exception {
        final Outcome o = mpjrun(
                "-np",
                String.valueOf(np),
                "-dev",
                "jvm",
                "-cp",
                PROGRAMS.toString(),
                "org.troupe.mpi.conformance." + program);
        assertEquals(0, o.exit(), o.out() + o.err());
    }

    @Test
    void anObjectThatCannotBeSentEndsTheJobEvenIfTheSenderGoesOn() throws Exception {
        final Outcome o = mpjrun(
                "-np", "2", "-dev", "jvm", "-cp", PROGRAMS.toString(), "org.troupe.mpi.programs.UnsendableObject");
        assertEquals(1, o.exit(), o.out() + o.err());
        assertTrue(
                o.err()
                        .contains("mpjrun: the job was aborted: rank 0 could not send MPI.OBJECT data: MPI.OBJECT:"
                                + " Class java.util.concurrent.atomic.AtomicInteger is not allowed to cross the wire"),
                o.err());
        assertTrue(o.err().contains("rank 1 stopped in an MPI call as the job was aborted"), o.err());
    }

    @Test
    void aFailingRankEndsTheJobAndTheOthersAreTold() throws Exception {
        final Outcome o = mpjrun(
                "-np",
                "3",
                "-dev",
                "jvm",
                "-tag-output",
                "-cp",
                PROGRAMS.toString(),
                "org.troupe.mpi.programs.FailingRank");
        assertEquals(1, o.exit(), o.out() + o.err());
        // As in every mode: the cause once, with the program's frames of its stack trace, then the summary.
        assertTrue(
                o.err()
                        .contains("mpjrun: rank 1 of 3: java.lang.IllegalStateException: boom in rank 1\n\tat"
                                + " org.troupe.mpi.programs.FailingRank.main(FailingRank.java:"),
                o.err());
        assertEquals(1, o.err().split("boom in rank 1", -1).length - 1, "the cause is said once: " + o.err());
        assertFalse(o.err().contains("JvmRank"), "no frames of the launcher's own: " + o.err());
        assertTrue(
                o.err()
                        .contains(
                                "mpjrun: 1 of 3 ranks failed; ranks 0, 2 stopped in an MPI call as the job was aborted"),
                o.err());
        assertFalse(o.err().contains("Caused by: org.troupe.mpi.fabric.FabricException"), o.err());
    }

    @Test
    void aRankWhoseJvmDiesEndsTheJob() throws Exception {
        final Outcome o =
                mpjrun("-np", "3", "-dev", "jvm", "-cp", PROGRAMS.toString(), "org.troupe.mpi.programs.LostRank");
        assertEquals(3, o.exit(), "mpjrun exits with the status the lost JVM ended with: " + o.out() + o.err());
        assertTrue(
                o.err().contains("mpjrun: rank 1 of 3: its JVM ended with status 3 before the rank finished"), o.err());
        assertTrue(
                o.err()
                        .contains(
                                "mpjrun: 1 of 3 ranks failed; ranks 0, 2 stopped in an MPI call as the job was aborted"),
                o.err());
    }

    @Test
    void aRankGoneBeforeItLinkedEndsTheJob() throws Exception {
        final Outcome o = mpjrun(
                "-np", "3", "-dev", "jvm", "-cp", PROGRAMS.toString(), "org.troupe.mpi.programs.JvmCases", "exit");
        assertEquals(3, o.exit(), "mpjrun exits with the rank's status, as mpirun does: " + o.err());
        assertTrue(
                o.err()
                        .contains("mpjrun: rank 1 of 3: called System.exit(3) (at"
                                + " org.troupe.mpi.programs.JvmCases.main(JvmCases.java:"),
                o.err());
    }

    @Test
    void aRankThatExitsWithStatusZeroBeforeFinalizeFailsTheJob() throws Exception {
        final Outcome o = exitingRank("exit");
        assertEquals(1, o.exit(), o.out() + o.err());
        assertTrue(
                o.err()
                        .contains("mpjrun: rank 1 of 3: called System.exit(0) before MPI.Finalize (at"
                                + " org.troupe.mpi.programs.ExitingRank.main(ExitingRank.java:"),
                o.err());
    }

    @Test
    void aRankThatReturnsWithoutFinalizeFailsTheJob() throws Exception {
        final Outcome o = exitingRank("return");
        assertEquals(1, o.exit(), o.out() + o.err());
        assertTrue(
                o.err()
                        .endsWith("mpjrun: rank 1 of 3: returned from main without calling MPI.Finalize\n"
                                + "mpjrun: 1 of 3 ranks failed; ranks 0, 2 stopped in an MPI call as the job was"
                                + " aborted\n"),
                o.err());
    }

    /** After its MPI.Finalize the others no longer depend on a rank: its failure fails the job, and aborts nothing. */
    @Test
    void aRankThatFailsAfterFinalizeFailsTheJobButLetsTheOthersFinish() throws Exception {
        final Outcome o = exitingRank("finalize-then-throw");
        assertEquals(1, o.exit(), o.out() + o.err());
        assertTrue(o.out().contains("rank 0 done") && o.out().contains("rank 2 done"), o.out() + o.err());
        assertTrue(
                o.err().contains("mpjrun: rank 1 of 3: java.lang.IllegalStateException: failed after Finalize"),
                o.err());
        assertTrue(o.err().endsWith("mpjrun: 1 of 3 ranks failed\n"), o.err());
    }

    @Test
    void aRankThatExitsWithStatusZeroAfterFinalizeHasFinished() throws Exception {
        final Outcome o = exitingRank("finalize-then-exit");
        assertEquals(0, o.exit(), o.out() + o.err());
        assertTrue(o.out().contains("rank 0 done") && o.out().contains("rank 2 done"), o.out());
    }

    /** A rank JVM stopped for 8 s (a long collection, a debugger) is not taken for lost: the job goes on. */
    @Test
    void aRankThatPausesForSecondsIsNotLost() throws Exception {
        final Path out = dir.resolve("pause.txt");
        final List<String> command = MpjRunCommand.of(
                List.of(),
                List.of(
                        "-np",
                        "2",
                        "-dev",
                        "jvm",
                        "-cp",
                        PROGRAMS.toString(),
                        "org.troupe.mpi.programs.JvmCases",
                        "pause"));
        final Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        try {
            long pid = -1;
            for (int i = 0; i < 300 && pid < 0; i++) {
                Thread.sleep(50);
                pid = Files.readAllLines(out).stream()
                        .filter(l -> l.startsWith("rank 1 pid "))
                        .mapToLong(l -> Long.parseLong(
                                l.substring("rank 1 pid ".length()).trim()))
                        .findFirst()
                        .orElse(-1);
            }
            assertTrue(pid > 0, Files.readString(out));
            assertEquals(
                    0,
                    new ProcessBuilder("kill", "-STOP", String.valueOf(pid))
                            .start()
                            .waitFor());
            Thread.sleep(8_000);
            assertEquals(
                    0,
                    new ProcessBuilder("kill", "-CONT", String.valueOf(pid))
                            .start()
                            .waitFor());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "mpjrun ended");
            assertEquals(0, p.exitValue(), Files.readString(out));
            assertTrue(Files.readString(out).contains("rank 0 got 42"), Files.readString(out));
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly); // a stopped JVM too
            p.destroyForcibly();
        }
    }

    @Test
    void anAbortEndsTheOtherRanksAtOnce() throws Exception {
        final Outcome o = mpjrun(
                "-np", "3", "-dev", "jvm", "-cp", PROGRAMS.toString(), "org.troupe.mpi.programs.JvmCases", "abort");
        assertEquals(3, o.exit(), "mpjrun exits with Abort's error code, as mpirun does: " + o.err());
        assertTrue(o.out().contains("rank 0: the job was aborted: rank 1 called Abort(3)"), o.out());
        assertTrue(o.out().contains("rank 2: the job was aborted: rank 1 called Abort(3)"), o.out());
        assertTrue(
                o.err()
                        .endsWith("mpjrun: rank 1 of 3: called Abort(3)\nmpjrun: 1 of 3 ranks failed; rank 1 was"
                                + " still running 5 s after the job was aborted: stopped\n"),
                o.err());
        assertEquals(1, o.err().split("mpjrun: ", -1).length - 2, "the cause once, then the summary: " + o.err());
    }

    @Test
    void rankZeroReadsTheStandardInputAndTheOptionsReachEveryRank() throws Exception {
        final Outcome in = mpjrun(
                List.of(),
                "forty-two\n",
                "-np",
                "2",
                "-dev",
                "jvm",
                "-cp",
                PROGRAMS.toString(),
                "org.troupe.mpi.programs.JvmCases",
                "stdin");
        assertEquals(0, in.exit(), in.err());
        assertTrue(in.out().contains("rank 0 read forty-two") && in.out().contains("rank 1 read forty-two"), in.out());
        final Outcome options = mpjrun(
                List.of("-Dmy.param=42"),
                "",
                "-np",
                "2",
                "-dev",
                "jvm",
                "-cp",
                PROGRAMS.toString(),
                "org.troupe.mpi.programs.JvmCases",
                "options");
        assertEquals(0, options.exit(), options.err());
        assertTrue(
                options.out().contains("rank 0 my.param=42") && options.out().contains("rank 1 my.param=42"),
                options.out());
    }

    /** Nozzle, the MPI flow solver, gives the same solution to the last bit as JVMs as on one rank. */
    @Test
    void nozzleOnJvmsGivesTheSolutionOfOneRank() throws Exception {
        final String nozzle =
                Path.of("..", "apps", "nozzle", "target", "classes").toString();
        final Path alone = dir.resolve("alone.csv");
        final Path jvms = dir.resolve("jvms.csv");
        final Outcome one = mpjrun(
                "-np",
                "1",
                "-cp",
                nozzle,
                "org.troupe.apps.nozzle.Nozzle",
                "--case",
                "shock",
                "--csv",
                alone.toString());
        assertEquals(0, one.exit(), one.out() + one.err());
        final Outcome three = mpjrun(
                "-np",
                "3",
                "-dev",
                "jvm",
                "-cp",
                nozzle,
                "org.troupe.apps.nozzle.Nozzle",
                "--case",
                "shock",
                "--csv",
                jvms.toString());
        assertEquals(0, three.exit(), three.out() + three.err());
        assertTrue(three.out().contains("shock, 200 cells on 3 ranks"), three.out());
        assertEquals(Files.readString(alone), Files.readString(jvms));
    }

    @Test
    void theRanksSeeTheirOwnOutputTagged() throws Exception {
        final Outcome o = mpjrun(
                "-np",
                "2",
                "-dev",
                "jvm",
                "-tag-output",
                "-cp",
                PROGRAMS.toString(),
                "org.troupe.mpi.programs.Hello",
                "bye");
        assertEquals(0, o.exit(), o.err());
        assertTrue(o.out().contains("[0] hello from 0 of 2 bye"), o.out());
        assertTrue(o.out().contains("[1] hello from 1 of 2 bye"), o.out());
    }
}
