package org.troupe.mpi.run;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.mpi.fabric.BlockedCall;

/**
 * The ranks of a JVM job ({@link JvmJob}) as the launcher follows them: what each said ({@link RankState}), and the
 * waits on it, for every rank's HELLO, then for every rank's end ({@link #supervise}), then for their JVMs' ends.
 *
 * <p>Threads: the launcher's endpoint handler records what the ranks say ({@code onHello}, {@code onDone}, ...);
 * the thread that runs the job waits; a shutdown hook may {@link #stopAll}. One monitor, this object, guards every
 * rank's state and the job's; a rank's JVM is published on its own, the hook reading it without the monitor.
 */
final class JobRanks {
    /** How long the frames a rank sent last may take to come after its JVM ended. */
    private static final long LAST_FRAMES_NANOS = 1_000_000_000L;
    /** The status of a job mpjrun was stopped in (Ctrl-C, a kill), as a shell gives a process ended by SIGINT. */
    static final int STOPPED_STATUS = 130;

    /** One rank: its JVM, where its endpoint is, what it said of its end, and what the supervision made of it. */
    private static final class RankState {
        volatile JvmJob.RankJvm jvm;
        /** Where its endpoint is, once it said HELLO; null until then. */
        EndpointAddress endpoint;
        /** It said DONE: its main ended, with {@link #status} and {@link #failure} ({@code ""}: none). */
        boolean done;

        int status;
        String failure;
        /** It called MPI.Finalize: its JVM may end from now on. */
        boolean finalized;
        /** The supervision has taken its end into account (and reported it, if it failed). */
        boolean settled;
        /** When its JVM was first seen ended with only its MPI.Finalize missing ({@code System.nanoTime}), or 0. */
        long endedAtNanos;
        /** The System.exit its JVM said it ends by, and where it was called; null if none. */
        Integer exitStatus;

        String exitWhere = "";
        /** Its failure has been said already (it called Abort). */
        boolean reported;
    }

    private final RankState[] ranks;
    private final PrintStream err;
    private final JobReport report;
    /** What the ranks are blocked in, as they say (BLOCKED). */
    private final HangReport hangs;
    /** Why a rank called Abort, or null. */
    private String abortedBecause;
    /** mpjrun is being stopped (Ctrl-C): so are its ranks, and their ends are not theirs to report. */
    private boolean stopping;

    /** {@code np} ranks, not started yet; what goes wrong is said on {@code err}, what they are blocked in to hangs. */
    JobRanks(final int np, final PrintStream err, final HangReport hangs) {
        this.ranks = new RankState[np];
        for (int r = 0; r < np; r++) {
            ranks[r] = new RankState();
        }
        this.err = err;
        this.report = new JobReport(np, err);
        this.hangs = hangs;
    }

    /** Where rank {@code rank} stands, for the console: starting, running, finalized, done or failed. */
    synchronized String stateOf(final int rank) {
        final RankState s = ranks[rank];
        if (s.done) {
            return s.status != 0 || !s.failure.isEmpty() ? "failed" : "done";
        }
        if (s.reported) {
            return "failed";
        }
        return s.finalized ? "finalized" : s.endpoint != null ? "running" : "starting";
    }

    /** Rank {@code rank} is blocked in {@code calls} now (none: no longer). */
    void onBlocked(final int rank, final List<BlockedCall> calls) {
        hangs.blocked(rank, calls);
    }

    int size() {
        return ranks.length;
    }

    /** Rank {@code rank}'s JVM has been started. */
    void started(final int rank, final JvmJob.RankJvm jvm) {
        ranks[rank].jvm = jvm;
    }

    // --- what the ranks say (the endpoint's thread) ---

    /**
     * Why the launcher does not take {@code m}, which came from endpoint {@code from}, or null if it does: a rank of
     * the job says HELLO once, naming the endpoint it sends from, then speaks from that endpoint alone, and says
     * DONE once. Anything else (a rank's JVM confused about its number, a second JVM started for a rank, a stale
     * frame) would make the launcher wait on, tell or judge the wrong JVM.
     */
    synchronized String refusal(final LauncherMessage.FromRank m, final EndpointAddress from) {
        final int r = m.rank();
        if (r < 0 || r >= ranks.length) {
            return "rank " + r + " is not one of the job's " + ranks.length + " ranks";
        }
        final RankState s = ranks[r];
        if (m instanceof LauncherMessage.Hello h) {
            if (s.endpoint != null) {
                return "rank " + r + " said HELLO already, from " + s.endpoint;
            }
            return h.endpoint().equals(from)
                    ? null
                    : "it names " + h.endpoint() + " as rank " + r + "'s endpoint, not its sender " + from;
        }
        if (s.endpoint == null) {
            return "rank " + r + " has not said HELLO";
        }
        if (!s.endpoint.equals(from)) {
            return "rank " + r + " said HELLO from " + s.endpoint + ", not from " + from;
        }
        return m instanceof LauncherMessage.Done && s.done ? "rank " + r + " said DONE already" : null;
    }

    synchronized void onHello(final int rank, final EndpointAddress endpoint) {
        ranks[rank].endpoint = endpoint;
        notifyAll();
    }

    synchronized void onDone(final int rank, final int status, final String failure) {
        ranks[rank].status = status;
        ranks[rank].failure = failure;
        ranks[rank].done = true;
        notifyAll();
    }

    synchronized void onFinalized(final int rank) {
        ranks[rank].finalized = true;
    }

    /**
     * A rank's JVM ended the job: rank {@code rank} called Abort({@code errorcode}), which is its failure whatever it
     * does next, or (errorcode null) the JVM found that the job cannot go on.
     */
    synchronized void onAborted(final int rank, final Integer errorcode, final String why) {
        if (abortedBecause == null) {
            abortedBecause = why;
        }
        if (errorcode != null && !ranks[rank].reported) {
            ranks[rank].reported = true;
            report.failed(rank, JobReport.calledAbort(errorcode), errorcode);
        }
        notifyAll();
    }

    /** Rank {@code rank}'s JVM said it is ending by System.exit({@code status}), called at {@code where}. */
    synchronized void onExited(final int rank, final int status, final String where) {
        ranks[rank].exitStatus = status;
        ranks[rank].exitWhere = where;
    }

    /** Something the waits look at may have changed without a message (a runtime was lost). */
    synchronized void wake() {
        notifyAll();
    }

    /** mpjrun is being stopped: every rank's JVM is stopped, and the supervision ends saying nothing more. */
    void stopAll() {
        synchronized (this) {
            stopping = true;
        }
        stopJvms();
    }

    /** Stops every rank's JVM that was started. */
    void stopJvms() {
        for (final RankState s : ranks) {
            final JvmJob.RankJvm jvm = s.jvm;
            if (jvm != null) {
                jvm.stop();
            }
        }
    }

    // --- the waits (the job's thread) ---

    /**
     * Waits until every rank has said HELLO, or for {@code seconds}, or until a rank that has not is a JVM that has
     * ended; whether all said it.
     */
    synchronized boolean awaitHellos(final long seconds) throws InterruptedException {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            boolean all = true;
            for (final RankState s : ranks) {
                if (s.endpoint == null) {
                    all = false;
                    if (!s.jvm.isAlive()) {
                        return false;
                    }
                }
            }
            if (all) {
                return true;
            }
            if (System.nanoTime() > end) {
                return false;
            }
            wait(50);
        }
    }

    /** Where each rank's endpoint is, in rank order (null for one that has not said HELLO). */
    synchronized List<EndpointAddress> endpoints() {
        final List<EndpointAddress> table = new ArrayList<>(ranks.length);
        for (final RankState s : ranks) {
            table.add(s.endpoint);
        }
        return table;
    }

    /**
     * Sends {@code message} from {@code launcher} to every rank that said HELLO and whose JVM lives. Never under the
     * monitor: a send may wait for a link's event loop, which may be waiting for the monitor to record what a rank
     * said or that a runtime was lost.
     */
    void tellAll(final Endpoint launcher, final LauncherMessage.ToRank message) {
        final List<EndpointAddress> table = endpoints();
        for (int r = 0; r < table.size(); r++) {
            final JvmJob.RankJvm jvm = ranks[r].jvm;
            if (table.get(r) != null && (jvm == null || jvm.isAlive())) {
                try {
                    message.send(launcher, table.get(r));
                } catch (RuntimeException e) {
                    // that rank's JVM is gone
                }
            }
        }
    }

    /**
     * Follows the ranks until all have finished or ended. A rank that fails, or whose JVM ends without finishing (a
     * System.exit with a non-zero status, a crash, a kill), aborts the job: the others are told, from
     * {@code launcher}, and those still running 5 s later are stopped. A rank whose JVM ends badly after its
     * MPI.Finalize fails the job's status but aborts nothing. What failed is said as the {@link JobReport} says it;
     * returns the job's status, the first cause's.
     */
    int supervise(final Endpoint launcher) throws InterruptedException {
        final int np = ranks.length;
        long abortedAt = 0;
        while (true) {
            String tell = null;
            synchronized (this) {
                if (stopping) { // mpjrun is being stopped (Ctrl-C): so are its ranks, and nothing more is said
                    return STOPPED_STATUS;
                }
                boolean running = false;
                String failure = null;
                if (abortedBecause != null && abortedAt == 0) {
                    failure = abortedBecause;
                }
                for (int r = 0; r < np; r++) {
                    final RankState s = ranks[r];
                    if (s.settled) {
                        continue;
                    }
                    if (s.done || !s.jvm.isAlive()) {
                        hangs.ended(r);
                    }
                    if (s.done) {
                        s.settled = true;
                        if (s.status != 0) {
                            final String why = s.failure.isEmpty() ? "exited with status " + s.status : s.failure;
                            if (!s.reported) {
                                report.failed(r, why, s.status);
                            }
                            if (failure == null && !s.finalized) { // after it, the others' cannot depend on it
                                failure = "rank " + r + " failed: "
                                        + why.lines().findFirst().orElse("");
                            }
                        }
                    } else if (!s.jvm.isAlive()) {
                        final String why = endedBecause(s);
                        if (why != null && s.exitStatus == null && s.jvm.endedBecause(true) == null) {
                            // Only its MPI.Finalize is missing: it may be on the way still, behind the JVM's end.
                            s.endedAtNanos = s.endedAtNanos == 0 ? System.nanoTime() : s.endedAtNanos;
                            if (System.nanoTime() - s.endedAtNanos < LAST_FRAMES_NANOS) {
                                running = true;
                                continue;
                            }
                        }
                        s.settled = true;
                        if (why != null) {
                            if (!s.reported) {
                                report.failed(r, why, s.exitStatus != null ? s.exitStatus : s.jvm.exitStatus());
                            }
                            if (!s.finalized && failure == null) { // after it, the others' cannot depend on it
                                failure = "rank " + r + ": " + why;
                            }
                        }
                    } else {
                        running = true;
                    }
                }
                if (failure != null && abortedAt == 0) {
                    abortedAt = System.nanoTime();
                    tell = failure;
                }
                if (tell == null) {
                    if (!running) {
                        return report.finish(abortedBecause, graceSeconds());
                    }
                    if (abortedAt == 0) {
                        hangs.check(System.nanoTime());
                    }
                    if (abortedAt != 0 && System.nanoTime() - abortedAt > ThreadsJob.ABORT_GRACE_NANOS) {
                        stopStragglers();
                        return report.finish(abortedBecause, graceSeconds());
                    }
                    wait(50);
                    continue;
                }
            }
            tellAll(launcher, new LauncherMessage.Abort(tell)); // see tellAll: not under the monitor
        }
    }

    private static long graceSeconds() {
        return TimeUnit.NANOSECONDS.toSeconds(ThreadsJob.ABORT_GRACE_NANOS);
    }

    /**
     * Why the end of rank {@code s}'s JVM, which it did not say DONE before, fails it, or null: the System.exit its
     * JVM said it ends by, with where it was called, or what the JVM's end says.
     */
    private static String endedBecause(final RankState s) {
        if (s.exitStatus == null) {
            return s.jvm.endedBecause(s.finalized);
        }
        if (s.exitStatus == 0 && s.finalized) {
            return null;
        }
        return JobReport.calledExit("System.exit(" + s.exitStatus + ")", s.exitStatus, s.exitWhere);
    }

    /** Stops the ranks still running once the grace time after an abort is over. */
    private void stopStragglers() {
        for (int r = 0; r < ranks.length; r++) {
            if (!ranks[r].settled && ranks[r].jvm.isAlive()) {
                ranks[r].jvm.stop();
                report.straggler(r, "stopped");
            }
        }
    }

    /**
     * Once the ranks were released: waits up to {@code seconds} for each rank's JVM to end, stopping one that does
     * not; returns {@code status}, or 1 if a JVM had to be stopped or ended badly after its rank finished well.
     */
    int awaitEnds(final int status, final long seconds) throws InterruptedException {
        int exit = status;
        for (int r = 0; r < ranks.length; r++) {
            final JvmJob.RankJvm jvm = ranks[r].jvm;
            if (!jvm.awaitEnd(seconds)) {
                jvm.stop();
                err.println("mpjrun: rank " + r + " did not end; it was stopped");
                exit = 1;
            } else if (jvm.endedBecause(true) != null && allFinishedWell(jvm)) {
                err.println("mpjrun: rank " + r + " of " + ranks.length + ": " + jvm.endedBecause(true));
                exit = 1;
            }
        }
        return exit;
    }

    /** Whether every rank of {@code jvm} (one, or several in hybrid placement) finished well. */
    private synchronized boolean allFinishedWell(final JvmJob.RankJvm jvm) {
        for (final RankState s : ranks) {
            if (s.jvm == jvm && !(s.done && s.status == 0)) {
                return false;
            }
        }
        return true;
    }
}
