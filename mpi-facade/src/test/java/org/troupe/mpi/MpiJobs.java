package org.troupe.mpi;

import static org.junit.jupiter.api.Assertions.fail;

import java.net.URL;
import java.util.List;
import org.troupe.mpi.run.ThreadsJob;

/** Runs a rank program of the test sources as a job of threads, as {@code bin/mpjrun -dev threads} does. */
public final class MpiJobs {
    private MpiJobs() {}

    /** The program's ranks' outcomes. */
    public static List<ThreadsJob.RankOutcome> run(final int np, final Class<?> program, final String... args)
            throws InterruptedException {
        final URL mpi = ThreadsJob.class.getProtectionDomain().getCodeSource().getLocation();
        final URL tests = program.getProtectionDomain().getCodeSource().getLocation();
        return ThreadsJob.run(np, mpi, List.of(tests), program.getName(), args).ranks();
    }

    /** Runs the program and fails with every rank's failure if one failed. */
    public static void runOk(final int np, final Class<?> program, final String... args) throws InterruptedException {
        final StringBuilder failures = new StringBuilder();
        for (final ThreadsJob.RankOutcome r : run(np, program, args)) {
            if (r.failed()) {
                failures.append("\nrank ").append(r.rank()).append(": ").append(r.failure());
            }
        }
        if (!failures.isEmpty()) {
            fail(program.getSimpleName() + " with " + np + " ranks failed:" + failures);
        }
    }
}
