package org.troupe.mpi.run;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;

/**
 * A job whose ranks are JVMs of this host ({@code bin/mpjrun -dev jvm}), linked by the core's TCP transport, or
 * threads of such JVMs, several per JVM ({@code -dev hybrid}, {@link HybridRanks}). The launcher forks one JVM per
 * rank (or per {@code -ppn} ranks) with its own runtime's secret, collects where each rank's endpoint is, hands every
 * rank the table, forwards their output line by line, and lets them exit once all have finished. When one fails,
 * the others are told (their pending MPI calls fail), and any left after 5 s is stopped.
 *
 * <p>The launcher and its ranks speak the {@link LauncherMessage} protocol; what the launcher learns of its ranks,
 * and its waits on them, are {@link JobRanks}'; the JVMs come from a {@link RankJvms}: {@link ForkedRanks} here, a
 * deployment's for {@link DescriptorJob}.
 */
final class JvmJob {
    private static final Logger LOG = LoggerFactory.getLogger(JvmJob.class);
    private static final long START_SECONDS = 60;
    /** How long each rank's JVM may take to end once released. */
    private static final long END_SECONDS = 5;

    static final String PEER_TIMEOUT = "troupe.core.peerTimeoutMillis";
    /** The job's peer timeout unless the user sets one: a rank that stalls (collects, is debugged) is not lost. */
    static final int RANK_PEER_TIMEOUT_MILLIS = 30_000;

    private JvmJob() {}

    /** A rank's JVM as the launcher follows it: one it forked, or a deployed node's. */
    interface RankJvm {
        boolean isAlive();

        /**
         * Once not alive: why its end fails the rank, or null if it ended well; {@code finalized}: the rank had
         * called MPI.Finalize.
         */
        String endedBecause(boolean finalized);

        /** Once not alive: the status its process ended with, if known and not 0, else 1. */
        default int exitStatus() {
            return 1;
        }

        /** Waits up to {@code seconds} for it to end once released; whether it did (else it is stopped). */
        boolean awaitEnd(long seconds) throws InterruptedException;

        void stop();
    }

    /** How a job's rank JVMs come to be. */
    interface RankJvms {
        /**
         * Starts the JVM of the ranks {@code first} to {@code first + count - 1} (one, unless in hybrid placement),
         * each to call home to the launcher's endpoint {@code launcher}.
         */
        RankJvm start(int first, int count, String launcher) throws Exception;

        /** A runtime the launcher was linked to is lost (a deployed rank's JVM, say). */
        default void lost(String runtimeId, String reason) {}

        /** Rank {@code rank}'s JVM said it is ending by System.exit({@code status}). */
        default void exited(int rank, int status) {}
    }

    /** Runs the job with rank JVMs forked on this host; returns the exit status (0 when every rank's main returned). */
    static int run(
            final MpjRun.Options o,
            final PrintStream out,
            final PrintStream err,
            final HangReport hangs,
            final JobView view)
            throws Exception {
        final ForkedRanks forked =
                new ForkedRanks(o, out, err, TroupeRuntime.get().config().secret());
        final int status = run(o, out, err, forked, hangs, view);
        forked.awaitOutput();
        return status;
    }

    /** Runs the job with the rank JVMs {@code jvms} starts; returns the exit status. */
    static int run(
            final MpjRun.Options o,
            final PrintStream out,
            final PrintStream err,
            final RankJvms jvms,
            final HangReport hangs,
            final JobView view)
            throws Exception {
        final int np = o.np();
        final TroupeRuntime runtime = TroupeRuntime.get();
        final String at = runtime.listen();
        final JobRanks ranks = new JobRanks(np, err, hangs);
        view.follow(ranks::stateOf);
        final ForwardedOutput forwardedOut = new ForwardedOutput(out, np, o.tagOutput());
        final ForwardedOutput forwardedErr = new ForwardedOutput(err, np, o.tagOutput());
        final Endpoint self =
                runtime.endpoints().open("mpjrun", new RankMessages(ranks, jvms, forwardedOut, forwardedErr));
        // Ctrl-C or a kill of mpjrun takes its ranks with it.
        final Thread stopRanks = new Thread(ranks::stopAll);
        Runtime.getRuntime().addShutdownHook(stopRanks);
        try {
            // Block placement, as MPJ Express's hybrid device and mpirun's --map-by slot: ranks 0..K-1 in the first
            // JVM, and so on; the last JVM runs what is left.
            for (int first = 0; first < np; first += o.ppn()) {
                final int count = Math.min(o.ppn(), np - first);
                final RankJvm jvm = jvms.start(first, count, "troupe://" + at + "/mpjrun");
                for (int r = first; r < first + count; r++) {
                    ranks.started(r, jvm);
                }
            }
            if (!ranks.awaitHellos(START_SECONDS)) {
                err.println("mpjrun: the ranks' JVMs did not all start within " + START_SECONDS + " s, or one ended"
                        + " first (its output above says why)");
                return 1;
            }
            ranks.tellAll(self, new LauncherMessage.Table(ranks.endpoints()));
            final int status = ranks.supervise(self);
            ranks.tellAll(self, new LauncherMessage.Release());
            return ranks.awaitEnds(status, END_SECONDS);
        } finally {
            forwardedOut.finish();
            forwardedErr.finish();
            ranks.stopJvms();
            self.close();
            try {
                Runtime.getRuntime().removeShutdownHook(stopRanks);
            } catch (IllegalStateException e) {
                // the JVM is exiting: the hook runs
            }
        }
    }

    /**
     * The launcher's endpoint handler: what the ranks say goes to the job's {@link JobRanks}, their output to
     * mpjrun's streams, a lost runtime to the {@link RankJvms}; a message the job's ranks could not rightly send
     * ({@link JobRanks#refusal}) is dropped, and logged. Runs on the endpoint's thread.
     */
    record RankMessages(JobRanks ranks, RankJvms jvms, ForwardedOutput out, ForwardedOutput err)
            implements EndpointHandler {
        @Override
        public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
            final LauncherMessage message;
            try {
                message = LauncherMessage.decode(header, payload);
            } catch (LauncherMessage.MalformedMessageException e) {
                LOG.warn("Dropped a frame from {}: {}", from, e.getMessage());
                return;
            }
            if (!(message instanceof LauncherMessage.FromRank m)) {
                LOG.warn("Dropped a frame from {}: {} is the launcher's to send, not a rank's", from, message);
                return;
            }
            final String refused = ranks.refusal(m, from);
            if (refused != null) {
                LOG.warn("Dropped a launcher message from {}: {}; it was {}", from, refused, message);
                return;
            }
            switch (m) {
                case LauncherMessage.Hello h -> ranks.onHello(h.rank(), h.endpoint());
                case LauncherMessage.Done d -> ranks.onDone(d.rank(), d.status(), d.failure());
                case LauncherMessage.Exited e -> {
                    ranks.onExited(e.rank(), e.status(), e.where());
                    jvms.exited(e.rank(), e.status());
                }
                case LauncherMessage.Finalized f -> ranks.onFinalized(f.rank());
                case LauncherMessage.Aborted a -> ranks.onAborted(a.rank(), a.errorcode(), a.why());
                case LauncherMessage.Output o -> (o.error() ? err : out).accept(o.rank(), o.bytes());
                case LauncherMessage.Blocked b -> ranks.onBlocked(b.rank(), b.calls());
            }
        }

        @Override
        public void runtimeLost(final String runtimeId, final String reason) {
            jvms.lost(runtimeId, reason);
            ranks.wake();
        }
    }
}
