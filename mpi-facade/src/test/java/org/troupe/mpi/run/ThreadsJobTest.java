package org.troupe.mpi.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.mpi.MpiJobs;
import org.troupe.mpi.programs.ExitingRank;
import org.troupe.mpi.programs.FailingRank;
import org.troupe.mpi.programs.PerRankStatics;
import org.troupe.mpi.programs.UnsendableObject;

class ThreadsJobTest {
    @Test
    void shouldGiveEachRankItsOwnStatics() throws InterruptedException {
        MpiJobs.runOk(4, PerRankStatics.class);
    }

    @Test
    void shouldFailTheOtherRanksWhenOneFails() throws InterruptedException {
        final List<ThreadsJob.RankOutcome> outcomes = MpiJobs.run(3, FailingRank.class);
        assertTrue(
                outcomes.get(1).failure().contains("IllegalStateException: boom in rank 1"),
                outcomes.get(1).failure());
        for (final int r : new int[] {0, 2}) {
            final String f = outcomes.get(r).failure();
            assertTrue(
                    f != null
                            && f.contains("MPIException: the job was aborted: rank 1 failed:"
                                    + " java.lang.IllegalStateException: boom in rank 1"),
                    "rank " + r + ": " + f);
        }
    }

    @Test
    void shouldFailTheJobWhenASendsObjectsCannotBeEncodedEvenIfTheSenderGoesOn() throws InterruptedException {
        final List<ThreadsJob.RankOutcome> outcomes = MpiJobs.run(2, UnsendableObject.class);
        final String f = outcomes.get(1).failure();
        assertTrue(
                f != null
                        && f.contains("the job was aborted: rank 0 could not send MPI.OBJECT data: MPI.OBJECT: Class"
                                + " java.util.concurrent.atomic.AtomicInteger is not allowed to cross the wire")
                        && f.contains(
                                "-Dtroupe.serialization.allowedClasses=java.util.concurrent.atomic.AtomicInteger"),
                "rank 1: " + f);
    }

    @Test
    void shouldEndTheJobWithoutARankThatNeverCallsMpiAgain() throws InterruptedException {
        final URL mpi = ThreadsJob.class.getProtectionDomain().getCodeSource().getLocation();
        final URL tests =
                FailingRank.class.getProtectionDomain().getCodeSource().getLocation();
        final long start = System.nanoTime();
        final List<ThreadsJob.RankOutcome> outcomes = ThreadsJob.run(
                        2,
                        mpi,
                        List.of(tests),
                        FailingRank.class.getName(),
                        new String[] {"compute"},
                        TimeUnit.MILLISECONDS.toNanos(200),
                        null,
                        null)
                .ranks();
        assertTrue(
                outcomes.get(0).failure().startsWith("still running 200 ms after the job was aborted"),
                outcomes.get(0).failure());
        assertTrue(outcomes.get(1).failed());
        assertFalse(System.nanoTime() - start > TimeUnit.SECONDS.toNanos(30), "the job ended");
    }

    @Test
    void shouldSayWhenTheMainClassIsMissing() throws InterruptedException {
        final URL mpi = ThreadsJob.class.getProtectionDomain().getCodeSource().getLocation();
        final List<ThreadsJob.RankOutcome> outcomes = ThreadsJob.run(1, mpi, List.of(), "org.acme.Nope", new String[0])
                .ranks();
        assertEquals(1, outcomes.size());
        assertTrue(
                outcomes.get(0).failure().contains("main class org.acme.Nope is not on the class path"),
                outcomes.get(0).failure());
    }

    @TempDir
    Path dir;

    record Exited(int status, String out, String err) {}

    /**
     * Runs ExitingRank with mpjrun -dev threads in a JVM of its own: should a rank's exit call end the JVM after all,
     * that JVM ends (its status the rank's, nothing said), not this one with every test after.
     */
    private Exited exitingRank(final String... args) throws Exception {
        final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                MpjRun.class.getName(),
                "-np",
                "3",
                "-cp",
                Path.of(ExitingRank.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                                .toURI())
                        .toString(),
                ExitingRank.class.getName()));
        command.addAll(List.of(args));
        final Process p = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile())
                .start();
        try {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "mpjrun ended");
            return new Exited(
                    p.exitValue(),
                    Files.readString(dir.resolve("out"), StandardCharsets.UTF_8),
                    Files.readString(dir.resolve("err"), StandardCharsets.UTF_8));
        } finally {
            p.destroyForcibly();
        }
    }

    /** The job failed with the exit's status: rank 1 said why, the two others were aborted with it. */
    private static void assertRankOneEndedTheJob(final Exited e, final String call, final int status) {
        assertEquals(status, e.status(), e.err());
        assertTrue(e.err().contains("mpjrun: rank 1 of 3: called " + call + " (at "), e.err());
        assertTrue(
                e.err()
                        .contains("mpjrun: 1 of 3 ranks failed; ranks 0, 2 stopped in an MPI call as the job was"
                                + " aborted"),
                e.err());
    }

    @Test
    void shouldFailTheJobWhenARankCallsSystemExit() throws Exception {
        final Exited e = exitingRank("exit", "3");
        assertRankOneEndedTheJob(e, "System.exit(3)", 3);
        assertFalse(e.out().contains("caught"), "catch (Exception e) let the exit through: " + e.out());
    }

    @Test
    void shouldFailTheJobWhenARankCallsRuntimeExit() throws Exception {
        assertRankOneEndedTheJob(exitingRank("runtime-exit", "2"), "Runtime.exit(2)", 2);
    }

    @Test
    void shouldFailTheJobWhenAThreadOfARankCallsRuntimeHalt() throws Exception {
        assertRankOneEndedTheJob(exitingRank("thread-halt", "4"), "Runtime.halt(4)", 4);
    }

    @Test
    void shouldFailARankThatCallsSystemExitZeroBeforeFinalize() throws Exception {
        assertRankOneEndedTheJob(exitingRank("exit", "0"), "System.exit(0) before MPI.Finalize", 1);
    }

    @Test
    void shouldEndARankThatCallsSystemExitZeroAfterFinalizeAsFinished() throws Exception {
        final Exited e = exitingRank("finalize-then-exit", "0");
        assertEquals(0, e.status(), e.err());
        assertTrue(e.out().contains("rank 0 done") && e.out().contains("rank 2 done"), e.out() + e.err());
        assertFalse(e.err().contains("mpjrun:"), e.err());
    }

    @Test
    void shouldFailARankThatCallsSystemExitWithAStatusAfterFinalize() throws Exception {
        final Exited e = exitingRank("finalize-then-exit", "5");
        assertEquals(5, e.status(), "mpjrun exits with the rank's status, as mpirun does: " + e.err());
        assertTrue(e.err().contains("mpjrun: rank 1 of 3: called System.exit(5) (at "), e.err());
        assertTrue(e.out().contains("rank 0 done") && e.out().contains("rank 2 done"), e.out() + e.err());
    }

    @Test
    void shouldFailTheJobButLetTheOthersFinishWhenARankFailsAfterFinalize() throws Exception {
        final Exited e = exitingRank("finalize-then-throw", "0");
        assertEquals(1, e.status(), e.err());
        assertTrue(
                e.err().contains("mpjrun: rank 1 of 3: java.lang.IllegalStateException: failed after Finalize"),
                e.err());
        assertTrue(e.err().endsWith("mpjrun: 1 of 3 ranks failed\n"), e.err());
        assertTrue(e.out().contains("rank 0 done") && e.out().contains("rank 2 done"), e.out() + e.err());
    }

    @Test
    void shouldFailARankThatReturnsWithoutFinalizeAndStopTheOthers() throws Exception {
        final Exited e = exitingRank("return", "0");
        assertEquals(1, e.status(), e.err());
        assertTrue(e.err().contains("mpjrun: rank 1 of 3: returned from main without calling MPI.Finalize\n"), e.err());
        assertTrue(
                e.err()
                        .contains(
                                "mpjrun: 1 of 3 ranks failed; ranks 0, 2 stopped in an MPI call as the job was aborted"),
                e.err());
    }
}
