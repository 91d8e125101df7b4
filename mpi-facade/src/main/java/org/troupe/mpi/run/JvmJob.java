package org.troupe.mpi.run;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;
import org.troupe.core.spi.Endpoints;

/**
 * A job whose ranks are JVMs of this host ({@code bin/mpjrun -dev jvm}), linked by the core's TCP transport. The
 * launcher forks one JVM per rank with its own runtime's secret, collects where each rank's endpoint is, hands every
 * rank the table, forwards their output line by line, and lets them exit once all have finished. When one fails,
 * the others are told (their pending MPI calls fail), and any left after 5 s is stopped.
 */
final class JvmJob {
    private static final Logger LOG = LoggerFactory.getLogger(JvmJob.class);
    private static final long START_SECONDS = 60;
    /** How long the frames a rank sent last may take to come after its JVM ended. */
    private static final long LAST_FRAMES_NANOS = 1_000_000_000L;
    static final String PEER_TIMEOUT = "troupe.core.peerTimeoutMillis";
    /** The job's peer timeout unless the user sets one: a rank that stalls (collects, is debugged) is not lost. */
    static final int RANK_PEER_TIMEOUT_MILLIS = 30_000;

    private JvmJob() {
    }

    /** A rank's JVM as the launcher follows it: one it forked, or a deployed node's. */
    interface RankJvm {
        boolean isAlive();

        /**
         * Once not alive: why its end fails the rank, or null if it ended well; {@code finalized}: the rank had
         * called MPI.Finalize.
         */
        String endedBecause(boolean finalized);

        /** Waits up to {@code seconds} for it to end once released; whether it did (else it is stopped). */
        boolean awaitEnd(long seconds) throws InterruptedException;

        void stop();
    }

    /** How a job's rank JVMs come to be. */
    interface RankJvms {
        /** Starts rank {@code rank}, to call home to the launcher's endpoint {@code launcher}. */
        RankJvm start(int rank, String launcher) throws Exception;

        /** A runtime the launcher was linked to is lost (a deployed rank's JVM, say). */
        default void lost(String runtimeId, String reason) {
        }

        /** Rank {@code rank}'s JVM said it is ending by System.exit({@code status}). */
        default void exited(int rank, int status) {
        }
    }

    /** Runs the job with rank JVMs forked on this host; returns the exit status (0 when every rank's main returned). */
    static int run(final MpjRun.Options o, final PrintStream out, final PrintStream err) throws Exception {
        final ForkedRanks forked = new ForkedRanks(o, out, err, TroupeRuntime.get().config().secret());
        final int status = run(o, out, err, forked);
        forked.awaitOutput();
        return status;
    }

    /** Runs the job with the rank JVMs {@code jvms} starts; returns the exit status. */
    static int run(final MpjRun.Options o, final PrintStream out, final PrintStream err, final RankJvms jvms)
        throws Exception {
        final int np = o.np();
        final TroupeRuntime runtime = TroupeRuntime.get();
        final String at = runtime.listen();
        final EndpointAddress[] table = new EndpointAddress[np];
        final boolean[] hello = new boolean[np];
        final boolean[] done = new boolean[np];
        final boolean[] finalized = new boolean[np];
        final int[] statuses = new int[np];
        final String[] failures = new String[np];
        final String[] aborted = new String[1];
        final Endpoint[] self = new Endpoint[1];
        final ForwardedOutput forwardedOut = new ForwardedOutput(out, np, o.tagOutput());
        final ForwardedOutput forwardedErr = new ForwardedOutput(err, np, o.tagOutput());
        self[0] = Endpoints.get().open("mpjrun", new EndpointHandler() {
            @Override
            public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
                final LauncherMessage message;
                try {
                    message = LauncherMessage.decode(header, payload);
                } catch (LauncherMessage.MalformedMessageException e) {
                    LOG.warn("Dropped a frame from {}: {}", from, e.getMessage());
                    return;
                }
                if (!(message instanceof LauncherMessage.FromRank m) || m.rank() >= np) {
                    return; // not a rank's, or not of this job's ranks
                }
                final int rank = m.rank();
                switch (m) {
                    case LauncherMessage.Hello h -> {
                        table[rank] = h.endpoint();
                        report(hello, rank);
                    }
                    case LauncherMessage.Done d -> {
                        statuses[rank] = d.status();
                        failures[rank] = d.failure();
                        report(done, rank);
                    }
                    case LauncherMessage.Exited e -> jvms.exited(rank, e.status());
                    case LauncherMessage.Finalized f -> {
                        synchronized (done) {
                            finalized[rank] = true;
                        }
                    }
                    case LauncherMessage.Aborted a -> {
                        synchronized (done) {
                            aborted[0] = a.why();
                            done.notifyAll();
                        }
                    }
                    case LauncherMessage.Output o -> (o.error() ? forwardedErr : forwardedOut).accept(rank, o.bytes());
                }
            }

            @Override
            public void runtimeLost(final String runtimeId, final String reason) {
                jvms.lost(runtimeId, reason);
                synchronized (done) {
                    done.notifyAll();
                }
            }
        });
        final List<RankJvm> ranks = new ArrayList<>();
        // Ctrl-C or a kill of mpjrun takes its ranks with it.
        final boolean[] stopping = new boolean[1];
        final Thread stopRanks = new Thread(() -> {
            synchronized (done) {
                stopping[0] = true; // the ranks' ends that follow are not theirs to report
            }
            ranks.forEach(RankJvm::stop);
        });
        Runtime.getRuntime().addShutdownHook(stopRanks);
        try {
            for (int r = 0; r < np; r++) {
                ranks.add(jvms.start(r, "troupe://" + at + "/mpjrun"));
            }
            if (!awaitReports(hello, ranks, START_SECONDS)) {
                err.println("mpjrun: the ranks' JVMs did not all start within " + START_SECONDS + " s, or one ended"
                    + " first (its output above says why)");
                return 1;
            }
            tellAll(self[0], table, new LauncherMessage.Table(List.of(table)));
            final int status = supervise(ranks, done, finalized, stopping, statuses, failures, aborted, self[0], table,
                err);
            tellAll(self[0], table, new LauncherMessage.Release());
            int exit = status;
            for (int r = 0; r < np; r++) {
                final RankJvm p = ranks.get(r);
                if (!p.awaitEnd(5)) {
                    p.stop();
                    err.println("mpjrun: rank " + r + " did not end; it was stopped");
                    exit = 1;
                } else if (p.endedBecause(true) != null && statuses[r] == 0 && done[r]) {
                    err.println("mpjrun: rank " + r + " of " + np + ": " + p.endedBecause(true));
                    exit = 1;
                }
            }
            return exit;
        } finally {
            forwardedOut.finish();
            forwardedErr.finish();
            for (final RankJvm p : ranks) {
                p.stop();
            }
            self[0].close();
            try {
                Runtime.getRuntime().removeShutdownHook(stopRanks);
            } catch (IllegalStateException e) {
                // the JVM is exiting: the hook runs
            }
        }
    }

    /**
     * Follows the ranks until all have finished or ended. A rank that fails, or whose JVM ends without finishing (a
     * System.exit with a non-zero status, a crash, a kill), aborts the job: the others are told, and those still
     * running 5 s later are stopped. Returns the job's status.
     */
    private static int supervise(final List<RankJvm> ranks, final boolean[] done, final boolean[] finalized,
                                 final boolean[] stopping, final int[] statuses,
                                 final String[] failures, final String[] aborted, final Endpoint self,
                                 final EndpointAddress[] table, final PrintStream err) throws InterruptedException {
        final int np = ranks.size();
        final boolean[] told = new boolean[np];
        final long[] endedAt = new long[np];
        long abortedAt = 0;
        int status = 0;
        while (true) {
            boolean running = false;
            String failure = null;
            synchronized (done) {
                if (stopping[0]) { // mpjrun is being stopped (Ctrl-C): so are its ranks, and nothing more is said
                    return 130;
                }
                if (aborted[0] != null && abortedAt == 0) {
                    failure = aborted[0];
                }
                for (int r = 0; r < np; r++) {
                    if (told[r]) {
                        continue;
                    }
                    if (done[r]) {
                        told[r] = true;
                        if (statuses[r] != 0) {
                            err.println("mpjrun: rank " + r + " of " + np + ": " + (failures[r] == null
                                ? "exited with status " + statuses[r] : failures[r]));
                            failure = "rank " + r + " failed" + (failures[r] == null ? "" : ": " + failures[r]);
                        }
                    } else if (!ranks.get(r).isAlive()) {
                        final String why = ranks.get(r).endedBecause(finalized[r]);
                        if (why != null && ranks.get(r).endedBecause(true) == null) {
                            // Only its MPI.Finalize is missing: it may be on the way still, behind the JVM's end.
                            endedAt[r] = endedAt[r] == 0 ? System.nanoTime() : endedAt[r];
                            if (System.nanoTime() - endedAt[r] < LAST_FRAMES_NANOS) {
                                running = true;
                                continue;
                            }
                        }
                        told[r] = true;
                        if (why != null) {
                            err.println("mpjrun: rank " + r + " of " + np + ": " + why);
                            failure = "rank " + r + ": " + why;
                        }
                    } else {
                        running = true;
                    }
                }
                if (failure != null) {
                    status = 1;
                    if (abortedAt == 0) {
                        abortedAt = System.nanoTime();
                        tellAll(self, table, new LauncherMessage.Abort(failure));
                    }
                }
                if (!running) {
                    return status;
                }
                if (abortedAt != 0 && System.nanoTime() - abortedAt > ThreadsJob.ABORT_GRACE_NANOS) {
                    for (int r = 0; r < np; r++) {
                        if (!told[r] && ranks.get(r).isAlive()) {
                            ranks.get(r).stop();
                            err.println("mpjrun: rank " + r + " of " + np + " was still running "
                                + TimeUnit.NANOSECONDS.toSeconds(ThreadsJob.ABORT_GRACE_NANOS) + " s after the job"
                                + " was aborted; it was stopped");
                        }
                    }
                    return 1;
                }
                done.wait(50);
            }
        }
    }

    private static void report(final boolean[] reported, final int rank) {
        synchronized (reported) {
            reported[rank] = true;
            reported.notifyAll();
        }
    }

    /**
     * Waits until every rank has {@code reported} (its HELLO), or for {@code seconds}, or until a rank that has not is
     * a JVM that has ended; whether all reported.
     */
    private static boolean awaitReports(final boolean[] reported, final List<RankJvm> ranks, final long seconds)
        throws InterruptedException {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        synchronized (reported) {
            while (true) {
                boolean all = true;
                for (int r = 0; r < reported.length; r++) {
                    if (!reported[r]) {
                        all = false;
                        if (!ranks.get(r).isAlive()) {
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
                reported.wait(50);
            }
        }
    }

    private static void tellAll(final Endpoint self, final EndpointAddress[] table,
                                final LauncherMessage.ToRank message) {
        for (final EndpointAddress a : table) {
            if (a != null) {
                try {
                    message.send(self, a);
                } catch (RuntimeException e) {
                    // that rank's JVM is gone
                }
            }
        }
    }
}
