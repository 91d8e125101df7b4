package org.troupe.mpi.run;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What mpjrun says of a job's end, the same in every mode: each failed rank's cause, once, as it is learnt (the first
 * cause first); then how many ranks failed, which were stopped in an MPI call as the job was aborted, and which were
 * still running past the grace time; and the status mpjrun exits with, as {@code mpirun}'s: the first cause's (an
 * {@code Abort} error code, a {@code System.exit} status), 1 for an exception.
 */
final class JobReport {
    /** How the failure of a rank stopped in an MPI call by another's failure begins. */
    static final String ABORTED_CALL = "mpi.MPIException: the job was aborted";

    private final int np;
    private final PrintStream err;
    private int failed;
    private int status;
    private final List<Integer> stopped = new ArrayList<>();
    private final List<Integer> stragglers = new ArrayList<>();
    private String stragglersFate = "";

    JobReport(final int np, final PrintStream err) {
        this.np = np;
        this.err = err;
    }

    /**
     * Whether a rank's failure is only a consequence of another's: an MPI call stopped as the job was aborted, thrown
     * as it is or as the cause of the program's own exception.
     */
    static boolean isConsequence(final String failure) {
        return failure.startsWith(ABORTED_CALL) || failure.contains("Caused by: " + ABORTED_CALL);
    }

    /** What a process whose status is {@code status} exits with, as the shell sees it; never 0 for a failure. */
    static int exitStatus(final int status) {
        return status > 0 && status < 256 ? status : 1;
    }

    /** A rank's failure when it returned from main after MPI.Init without MPI.Finalize. */
    static final String NO_FINALIZE = "returned from main without calling MPI.Finalize";

    /** A rank's failure when it called Abort({@code errorcode}). */
    static String calledAbort(final int errorcode) {
        return "called Abort(" + errorcode + ")";
    }

    /**
     * A rank's failure when it called {@code exit} (System.exit(3), Runtime.halt(4), ...) from {@code where} (a stack
     * frame, or "" if not known); {@code status} 0 is a failure only before MPI.Finalize.
     */
    static String calledExit(final String exit, final int status, final String where) {
        return "called " + exit + (status == 0 ? " before MPI.Finalize" : "")
                + (where.isEmpty() ? "" : " (at " + where + ")");
    }

    /** Rank {@code rank} failed: {@code why}, or only stopped if that is a consequence of another's failure. */
    void failed(final int rank, final String why, final int rankStatus) {
        if (isConsequence(why)) {
            stopped.add(rank);
            return;
        }
        err.println("mpjrun: rank " + rank + " of " + np + ": " + why);
        failed++;
        if (status == 0) {
            status = exitStatus(rankStatus);
        }
    }

    /** Rank {@code rank} was still running when the grace time after the abort ran out, and met {@code fate}. */
    void straggler(final int rank, final String fate) {
        stragglers.add(rank);
        stragglersFate = fate;
    }

    boolean anyFailed() {
        return failed > 0;
    }

    /** Says how the job ended, if it failed or was aborted ({@code abortedBecause}); returns mpjrun's status. */
    int finish(final String abortedBecause, final long graceSeconds) {
        if (failed == 0 && abortedBecause != null) {
            err.println("mpjrun: the job was aborted: " + abortedBecause);
            status = 1;
        }
        if (failed == 0 && stopped.isEmpty() && stragglers.isEmpty()) {
            return status;
        }
        final StringBuilder line = new StringBuilder("mpjrun: " + failed + " of " + np + " ranks failed");
        if (!stopped.isEmpty()) {
            line.append("; ").append(ranks(stopped)).append(" stopped in an MPI call as the job was aborted");
        }
        if (!stragglers.isEmpty()) {
            line.append("; ")
                    .append(ranks(stragglers))
                    .append(stragglers.size() == 1 ? " was" : " were")
                    .append(" still running ")
                    .append(graceSeconds)
                    .append(" s after the job was aborted: ")
                    .append(stragglersFate);
        }
        err.println(line);
        return status == 0 ? 1 : status;
    }

    static String ranks(final List<Integer> ranks) {
        return (ranks.size() == 1 ? "rank " : "ranks ")
                + ranks.stream().sorted().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
