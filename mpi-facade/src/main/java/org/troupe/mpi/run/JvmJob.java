package org.troupe.mpi.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
    static final byte HELLO = 1;
    static final byte TABLE = 2;
    static final byte DONE = 3;
    static final byte ABORT = 4;
    static final byte RELEASE = 5;
    private static final long START_SECONDS = 60;

    private JvmJob() {
    }

    /** Runs the job; returns the exit status (0 when every rank's main returned). */
    static int run(final MpjRun.Options o, final PrintStream out, final PrintStream err) throws Exception {
        final int np = o.np();
        final TroupeRuntime runtime = TroupeRuntime.get();
        final String at = runtime.listen();
        final EndpointAddress[] table = new EndpointAddress[np];
        final boolean[] hello = new boolean[np];
        final boolean[] done = new boolean[np];
        final int[] statuses = new int[np];
        final Endpoint[] self = new Endpoint[1];
        self[0] = Endpoints.get().open("mpjrun", new EndpointHandler() {
            @Override
            public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
                if (header.remaining() != 1) {
                    return;
                }
                final String[] lines = StandardCharsets.UTF_8.decode(payload.duplicate()).toString().split("\n");
                final int rank = Integer.parseInt(lines[0]);
                if (rank < 0 || rank >= np) {
                    return;
                }
                if (header.get(header.position()) == HELLO) {
                    table[rank] = parse(lines[1]);
                    report(hello, rank);
                } else if (header.get(header.position()) == DONE) {
                    statuses[rank] = Integer.parseInt(lines[1]);
                    if (statuses[rank] != 0) {
                        tellAll(self[0], table, ABORT, "rank " + rank + " failed (its output says why)");
                    }
                    report(done, rank);
                }
            }
        });
        final List<Process> ranks = new ArrayList<>();
        final List<Thread> pumps = new ArrayList<>();
        try {
            for (int r = 0; r < np; r++) {
                final Process p = start(o, r, "troupe://" + at + "/mpjrun", runtime.config().secret());
                ranks.add(p);
                pumps.add(pump(p.getInputStream(), out, o.tagOutput() ? "[" + r + "] " : ""));
                pumps.add(pump(p.getErrorStream(), err, o.tagOutput() ? "[" + r + "] " : ""));
            }
            if (!awaitReports(hello, ranks, START_SECONDS)) {
                err.println("mpjrun: the ranks' JVMs did not all start within " + START_SECONDS + " s (or one"
                    + " ended first; its output above says why)");
                return 1;
            }
            tellEach(self[0], table);
            // All finished (or one failed and the others were told): let them go, and stop the stragglers.
            final boolean all = awaitReports(done, ranks, Long.MAX_VALUE / 4_000_000_000L);
            if (!all || anyFailed(statuses)) {
                tellAll(self[0], table, ABORT, "a rank failed or its JVM ended");
                awaitReports(done, ranks, TimeUnit.NANOSECONDS.toSeconds(ThreadsJob.ABORT_GRACE_NANOS));
            }
            tellAll(self[0], table, RELEASE, "");
            int status = 0;
            for (int r = 0; r < np; r++) {
                final Process p = ranks.get(r);
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    err.println("mpjrun: rank " + r + " did not end; it was stopped");
                    status = 1;
                } else if (p.exitValue() != 0) {
                    err.println("mpjrun: rank " + r + " of " + np + " exited with status " + p.exitValue());
                    status = 1;
                }
            }
            for (final Thread t : pumps) {
                t.join(2_000);
            }
            return status;
        } finally {
            for (final Process p : ranks) {
                p.destroyForcibly();
            }
            self[0].close();
        }
    }

    private static boolean anyFailed(final int[] statuses) {
        for (final int s : statuses) {
            if (s != 0) {
                return true;
            }
        }
        return false;
    }

    private static void report(final boolean[] reported, final int rank) {
        synchronized (reported) {
            reported[rank] = true;
            reported.notifyAll();
        }
    }

    /**
     * Waits until every rank has {@code reported} (its HELLO, or its DONE), or until each rank that has not is a JVM
     * that has ended, or for {@code seconds}; whether all reported.
     */
    private static boolean awaitReports(final boolean[] reported, final List<Process> ranks, final long seconds)
        throws InterruptedException {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            boolean all = true;
            boolean waiting = false;
            synchronized (reported) {
                for (int r = 0; r < reported.length; r++) {
                    if (!reported[r]) {
                        all = false;
                        waiting |= ranks.get(r).isAlive();
                    }
                }
                if (all) {
                    return true;
                }
                if (!waiting || System.nanoTime() > end) {
                    return false; // the ranks still to report are gone, or it is too late
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
        // Troupe settings given to mpjrun (JAVA_OPTS=-Dtroupe...) hold for its ranks too.
        for (final Map.Entry<Object, Object> e : System.getProperties().entrySet()) {
            if (e.getKey().toString().startsWith("troupe.") && !e.getKey().toString().equals("troupe.core.secret")) {
                command.add("-D" + e.getKey() + "=" + e.getValue());
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
        return pb.start();
    }

    /** Copies a rank's output to {@code to}, whole lines, each prefixed. */
    private static Thread pump(final InputStream from, final PrintStream to, final String prefix) {
        final Thread t = Thread.ofPlatform().daemon(true).name("mpjrun-output").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(from, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (to) {
                        to.println(prefix + line);
                    }
                }
            } catch (IOException e) {
                // the rank's JVM ended: its output ends with it
            }
        });
        return t;
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
