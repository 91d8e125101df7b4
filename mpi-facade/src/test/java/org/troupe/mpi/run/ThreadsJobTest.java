package org.troupe.mpi.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.troupe.mpi.MpiJobs;
import org.troupe.mpi.programs.FailingRank;
import org.troupe.mpi.programs.PerRankStatics;

class ThreadsJobTest {
    @Test
    void shouldGiveEachRankItsOwnStatics() throws InterruptedException {
        MpiJobs.runOk(4, PerRankStatics.class);
    }

    @Test
    void shouldFailTheOtherRanksWhenOneFails() throws InterruptedException {
        final List<ThreadsJob.RankOutcome> outcomes = MpiJobs.run(3, FailingRank.class);
        assertTrue(outcomes.get(1).failure().contains("IllegalStateException: boom in rank 1"),
            outcomes.get(1).failure());
        for (final int r : new int[] {0, 2}) {
            final String f = outcomes.get(r).failure();
            assertTrue(f != null && f.contains("MPIException: the job was aborted: rank 1 failed:"
                + " java.lang.IllegalStateException: boom in rank 1"), "rank " + r + ": " + f);
        }
    }

    @Test
    void shouldEndTheJobWithoutARankThatNeverCallsMpiAgain() throws InterruptedException {
        final URL mpi = ThreadsJob.class.getProtectionDomain().getCodeSource().getLocation();
        final URL tests = FailingRank.class.getProtectionDomain().getCodeSource().getLocation();
        final long start = System.nanoTime();
        final List<ThreadsJob.RankOutcome> outcomes = ThreadsJob.run(2, mpi, List.of(tests),
            FailingRank.class.getName(), new String[] {"compute"}, TimeUnit.MILLISECONDS.toNanos(200)).ranks();
        assertTrue(outcomes.get(0).failure().startsWith("still running 200 ms after the job was aborted"),
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
        assertTrue(outcomes.get(0).failure().contains("main class org.acme.Nope is not on the class path"),
            outcomes.get(0).failure());
    }
}
