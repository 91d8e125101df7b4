package org.troupe.mpi.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;

/**
 * A job whose ranks are JVMs of this host ({@code bin/mpjrun -dev jvm}), linked by the core's TCP transport. The
 * launcher forks one JVM per rank with its own runtime's secret, collects where each rank's endpoint is, hands every
 * rank the table, forwards their output line by line, and lets them exit once all have finished. When one fails,
 * the others are told (their pending MPI calls fail), and any left after 5 s is stopped.
 */
final class JvmJob {
    static final byte HELLO = 1;
    static final byte TABLE = 2;
    static final byte DONE = 3;
    static final byte ABORT = 4;
    static final byte RELEASE = 5;
    /** A rank called Abort: the job ends now, whatever that rank does next. */
    static final byte ABORTED = 6;
    /** A deployed rank's standard output and error: the rank, a newline, the bytes. */
    static final byte OUTPUT = 7;
    static final byte ERROR_OUTPUT = 8;
    /** A rank called MPI.Finalize: its JVM may end from now on (a System.exit(0) after it is a normal end). */
    static final byte FINALIZED = 9;
    /** A deployed rank's JVM is ending by System.exit: the status. */
    static final byte EXITED = 10;
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
        final List<Thread> pumps = new ArrayList<>();
        final int status = run(o, out, err, (rank, launcher) -> {
            final Process p = start(o, rank, launcher, TroupeRuntime.get().config().secret());
            final String prefix = o.tagOutput() ? "[" + rank + "] " : "";
            pumps.add(pump(p.getInputStream(), out, prefix));
            pumps.add(pump(p.getErrorStream(), err, prefix));
            return new ForkedRank(p);
        });
        for (final Thread t : pumps) {
            t.join(2_000);
        }
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
        final Forwarded forwardedOut = new Forwarded(out, np, o.tagOutput());
        final Forwarded forwardedErr = new Forwarded(err, np, o.tagOutput());
        self[0] = TroupeRuntime.get().endpoints().open("mpjrun", new EndpointHandler() {
            @Override
            public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
                if (header.remaining() != 1) {
                    return;
                }
                final String[] lines = StandardCharsets.UTF_8.decode(payload.duplicate()).toString().split("\n", 3);
                final int rank;
                try {
                    rank = Integer.parseInt(lines[0]);
                } catch (NumberFormatException e) {
                    return;
                }
                if (rank < 0 || rank >= np || lines.length < 2) {
                    return;
                }
                if (header.get(header.position()) == HELLO) {
                    table[rank] = parse(lines[1]);
                    report(hello, rank);
                } else if (header.get(header.position()) == DONE) {
                    statuses[rank] = Integer.parseInt(lines[1]);
                    failures[rank] = lines.length > 2 ? lines[2] : null;
                    report(done, rank);
                } else if (header.get(header.position()) == EXITED) {
                    try {
                        jvms.exited(rank, Integer.parseInt(lines[1].trim()));
                    } catch (NumberFormatException e) {
                        return;
                    }
                } else if (header.get(header.position()) == FINALIZED) {
                    synchronized (done) {
                        finalized[rank] = true;
                    }
                } else if (header.get(header.position()) == ABORTED) {
                    synchronized (done) {
                        aborted[0] = lines[1];
                        done.notifyAll();
                    }
                } else if (header.get(header.position()) == OUTPUT || header.get(header.position()) == ERROR_OUTPUT) {
                    final int start = payload.position() + lines[0].length() + 1;
                    final byte[] bytes = new byte[payload.limit() - start];
                    payload.get(start, bytes);
                    (header.get(header.position()) == OUTPUT ? forwardedOut : forwardedErr).accept(rank, bytes);
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
            tellEach(self[0], table);
            final int status = supervise(ranks, done, finalized, stopping, statuses, failures, aborted, self[0], table,
                err);
            tellAll(self[0], table, RELEASE, "");
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
                        tellAll(self, table, ABORT, failure);
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

    private static Process start(final MpjRun.Options o, final int rank, final String launcher, final String secret)
        throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED",
            "-Xss4m"));
        // A rank may pause a while (a long collection, a debugger) before its peers take it for lost.
        if (System.getProperty(PEER_TIMEOUT) != null) { // mpjrun's own (see MpjRun.main)
            command.add("-D" + PEER_TIMEOUT + "=" + System.getProperty(PEER_TIMEOUT));
        }
        // What mpjrun's JVM was given (JAVA_OPTS: -Xmx, -D, ...) holds for the ranks' JVMs too, but the secret,
        // which they get from the environment.
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-Dtroupe.core.secret=")) {
                command.add(arg);
            }
        }
        final String appClassPath = String.join(java.io.File.pathSeparator,
            o.classPath().stream().map(u -> {
                try {
                    return Path.of(u.toURI()).toString();
                } catch (java.net.URISyntaxException ex) {
                    throw new IllegalArgumentException(ex);
                }
            }).toList());
        command.addAll(List.of("-cp", System.getProperty("java.class.path") + java.io.File.pathSeparator
            + appClassPath, JvmRank.class.getName(), launcher, String.valueOf(rank), String.valueOf(o.np()),
            appClassPath, o.mainClass()));
        command.addAll(List.of(o.programArgs()));
        final ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("TROUPE_CORE_SECRET", secret);
        // Standard input goes to rank 0, as mpirun gives it; the others read an empty one.
        pb.redirectInput(rank == 0 ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.from(new java.io.File(
            "/dev/null")));
        return pb.start();
    }

    /** A rank JVM this launcher forked. */
    private record ForkedRank(Process process) implements RankJvm {
        @Override
        public boolean isAlive() {
            return process.isAlive();
        }

        @Override
        public String endedBecause(final boolean finalized) {
            if (process.exitValue() != 0) {
                return "its JVM ended with status " + process.exitValue() + " before the rank finished";
            }
            return finalized ? null : "its JVM ended with status 0 before the rank called MPI.Finalize (a System.exit"
                + "(0)?)";
        }

        @Override
        public boolean awaitEnd(final long seconds) throws InterruptedException {
            return process.waitFor(seconds, TimeUnit.SECONDS);
        }

        @Override
        public void stop() {
            process.destroyForcibly();
        }
    }

    /**
     * The output deployed ranks forward, to one stream: byte for byte; or, tagged, line by line, each line prefixed
     * with its rank (a rank's partial line waits for the rest of it, as a forked rank's does in {@link #pump}).
     */
    private static final class Forwarded {
        private final PrintStream to;
        private final java.io.ByteArrayOutputStream[] partial;

        Forwarded(final PrintStream to, final int np, final boolean tagged) {
            this.to = to;
            this.partial = tagged ? new java.io.ByteArrayOutputStream[np] : null;
        }

        synchronized void accept(final int rank, final byte[] bytes) {
            if (partial == null) {
                synchronized (to) {
                    to.write(bytes, 0, bytes.length);
                    to.flush();
                }
                return;
            }
            if (partial[rank] == null) {
                partial[rank] = new java.io.ByteArrayOutputStream();
            }
            int start = 0;
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] == '\n') {
                    partial[rank].write(bytes, start, i + 1 - start);
                    emit(to, ("[" + rank + "] ").getBytes(StandardCharsets.UTF_8), partial[rank]);
                    start = i + 1;
                }
            }
            partial[rank].write(bytes, start, bytes.length - start);
        }

        /** The job is over: partial lines are written as lines. */
        synchronized void finish() {
            for (int r = 0; partial != null && r < partial.length; r++) {
                if (partial[r] != null && partial[r].size() > 0) {
                    partial[r].write('\n');
                    emit(to, ("[" + r + "] ").getBytes(StandardCharsets.UTF_8), partial[r]);
                }
            }
        }
    }

    /** Copies a rank's output to {@code to} byte for byte; with a prefix, line by line, each line prefixed. */
    private static Thread pump(final InputStream from, final PrintStream to, final String prefix) {
        final byte[] tag = prefix.getBytes(StandardCharsets.UTF_8);
        return Thread.ofPlatform().daemon(true).name("mpjrun-output").start(() -> {
            final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
            final byte[] buf = new byte[8192];
            try {
                int n;
                while ((n = from.read(buf)) > 0) {
                    if (tag.length == 0) {
                        synchronized (to) {
                            to.write(buf, 0, n);
                            to.flush();
                        }
                        continue;
                    }
                    int start = 0;
                    for (int i = 0; i < n; i++) {
                        if (buf[i] == '\n') {
                            line.write(buf, start, i + 1 - start);
                            emit(to, tag, line);
                            start = i + 1;
                        }
                    }
                    line.write(buf, start, n - start);
                }
            } catch (IOException e) {
                // the rank's JVM ended: its output ends with it
            }
            if (line.size() > 0) {
                line.write('\n');
                emit(to, tag, line);
            }
        });
    }

    private static void emit(final PrintStream to, final byte[] tag, final java.io.ByteArrayOutputStream line) {
        synchronized (to) {
            to.write(tag, 0, tag.length);
            to.write(line.toByteArray(), 0, line.size());
            to.flush();
        }
        line.reset();
    }

    private static void tellEach(final Endpoint self, final EndpointAddress[] table) {
        final StringBuilder b = new StringBuilder();
        for (final EndpointAddress a : table) {
            b.append(format(a)).append('\n');
        }
        tellAll(self, table, TABLE, b.toString());
    }

    private static void tellAll(final Endpoint self, final EndpointAddress[] table, final byte type,
                                final String text) {
        for (final EndpointAddress a : table) {
            if (a != null) {
                try {
                    self.send(a, header(type), text(text), false);
                } catch (RuntimeException e) {
                    // that rank's JVM is gone
                }
            }
        }
    }

    static ByteBuffer header(final byte type) {
        return ByteBuffer.wrap(new byte[] {type});
    }

    static ByteBuffer text(final String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    static String format(final EndpointAddress a) {
        return a.runtimeId() + "\t" + a.runtimeAddress() + "\t" + a.id();
    }

    static EndpointAddress parse(final String s) {
        final String[] f = s.split("\t", -1);
        return new EndpointAddress(f[0], f[1], Long.parseLong(f[2]));
    }
}
