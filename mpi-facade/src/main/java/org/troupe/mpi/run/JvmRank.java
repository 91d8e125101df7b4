package org.troupe.mpi.run;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;
import org.troupe.mpi.fabric.EndpointFabric;
import org.troupe.mpi.fabric.Fabric;
import org.troupe.mpi.fabric.RankBinding;

/**
 * One rank of a job run as JVMs ({@code mpjrun -dev jvm}): {@code JvmRank LAUNCHER RANK SIZE APP_CLASSPATH MAIN
 * [args]}. It opens its endpoint, tells the launcher where it is, learns where the others are, runs the program,
 * says it has finished, and exits once the launcher lets it (so that nothing it sent is lost with its JVM).
 */
public final class JvmRank {
    private static final Logger LOG = LoggerFactory.getLogger(JvmRank.class);
    /** How long a rank waits for the JVMs of lower ranks to link to its own before its program starts anyway. */
    static final Duration LINK_AHEAD_TIMEOUT = Duration.ofSeconds(10);
    /** How long a rank waits for the launcher's table of ranks. */
    static final long LAUNCHER_WAIT_SECONDS = 60;

    private JvmRank() {}

    public static void main(final String[] args) throws Exception {
        final int status = run(
                args[0],
                Integer.parseInt(args[1]),
                Integer.parseInt(args[2]),
                ApplicationClasses.of(MpjRun.Options.classPath(args[3])),
                args[4],
                Arrays.copyOfRange(args, 5, args.length),
                false);
        System.exit(status);
    }

    /**
     * Runs rank {@code rank} of the job whose launcher's endpoint is {@code launcherAt}, in this JVM; returns its
     * status once the launcher has let it go. {@code forwardOutput}: the program's standard output and error go
     * to the launcher as frames (a deployed node's JVM, whose own output goes to a log), else they are this JVM's;
     * and so does the status of a System.exit, which the launcher could not learn otherwise.
     */
    static int run(
            final String launcherAt,
            final int rank,
            final int size,
            final ApplicationClasses application,
            final String mainClass,
            final String[] programArgs,
            final boolean forwardOutput)
            throws Exception {
        final TroupeRuntime runtime = TroupeRuntime.get(); // the launcher's secret came in the environment
        final EndpointFabric links =
                new EndpointFabric(rank, size, runtime.config().serialization().maxMessageBytes());
        final Fabric fabric = new Fabric(size, rank, links);
        links.attach(fabric);
        final Launcher launcher = new Launcher(fabric);
        final Endpoint endpoint = TroupeRuntime.get().endpoints().open("mpi-rank-" + rank, new EndpointHandler() {
            @Override
            public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
                if (LauncherMessage.isLauncherMessage(header)) {
                    launcher.received(header, payload);
                } else {
                    links.received(from, header, payload);
                }
            }

            @Override
            public void runtimeLost(final String runtimeId, final String reason) {
                links.runtimeLost(runtimeId, reason);
                launcher.lost(runtimeId, reason);
            }
        });
        links.connect(endpoint);
        final EndpointAddress launcherAddress = TroupeRuntime.get().endpoints().lookup(launcherAt);
        if (runtime.metrics().enabled()) { // the launcher's console draws the job's traffic from these
            fabric.countIn(runtime.metrics().registry());
            runtime.reportMetricsTo(launcherAddress.runtimeAddress());
        }
        launcher.address = launcherAddress;
        links.onAbort(why -> new LauncherMessage.Aborted(rank, abortCode(fabric), why).send(endpoint, launcherAddress));
        links.onFinished(r -> new LauncherMessage.Finalized(r).send(endpoint, launcherAddress));
        new LauncherMessage.Hello(rank, endpoint.address()).send(endpoint, launcherAddress);
        final EndpointAddress[] table;
        try {
            table = awaitTable(launcher, new Endpoint[] {endpoint}, rank, launcherAddress);
        } catch (IllegalStateException e) {
            if (forwardOutput) { // a node's JVM lives on: the endpoint goes with the rank (a forked one exits)
                endpoint.close();
            }
            throw e;
        }
        links.ranks(table);
        links.linkAhead(LINK_AHEAD_TIMEOUT);
        final String host = hostOf(endpoint.address());
        fabric.ranksOnThisHost(
                (int) Arrays.stream(table).filter(a -> hostOf(a).equals(host)).count());

        final PrintStream savedOut = System.out;
        final PrintStream savedErr = System.err;
        if (forwardOutput) {
            System.setOut(forwarding(endpoint, launcherAddress, rank, false));
            System.setErr(forwarding(endpoint, launcherAddress, rank, true));
        }
        reportExits(endpoint, launcherAddress, rank); // a forked JVM's status is known, but not where it was called
        RankBinding.bind(new RankBinding(fabric, rank, application.packages(), application.unnamedPackageClasses()));
        int status = 0;
        String failure = "";
        // The rank's threads: this one, and the non-daemon ones of its group that main starts (Troupe's are
        // daemons; a node JVM's own threads were there before).
        final Thread self = Thread.currentThread();
        final Set<Thread> before = new HashSet<>(HangWatch.nonDaemonThreads(self.getThreadGroup()));
        before.remove(self);
        try (HangWatch watch = new HangWatch(
                fabric,
                new int[] {rank},
                r -> {
                    final List<Thread> threads = HangWatch.nonDaemonThreads(self.getThreadGroup());
                    threads.removeAll(before);
                    return threads;
                },
                tellingLauncher(new Endpoint[] {endpoint}, rank, launcherAddress))) {
            ThreadsJob.runMain(JvmRank.class.getClassLoader(), mainClass, programArgs);
        } catch (Throwable t) { // mpjrun says the cause with its stack trace, and a consequence (another's) in a line
            status = 1;
            failure = ThreadsJob.describe(t);
        }
        if (fabric.abortingRank() == rank) { // this rank ended the job: its Abort fails it, even caught
            status = JobReport.exitStatus(fabric.abortCode());
            failure = JobReport.calledAbort(fabric.abortCode());
        } else if (status == 0 && fabric.isStartedOnly(rank) && !fabric.isAborted()) {
            status = 1;
            failure = JobReport.NO_FINALIZE;
        }
        System.out.flush();
        System.err.flush();
        System.setOut(savedOut);
        System.setErr(savedErr);
        links.finished(rank);
        try {
            new LauncherMessage.Done(rank, status, failure).send(endpoint, launcherAddress);
            launcher.released.await(); // until the launcher lets every rank go, or is lost
        } catch (RuntimeException e) {
            System.err.println("mpjrun: rank " + rank + ": the launcher cannot be told that this rank has finished: "
                    + e.getMessage());
            status = Math.max(status, 1);
        }
        if (forwardOutput) { // a node's JVM lives on: frames for this rank are dropped from now on (a forked one exits)
            endpoint.close();
        }
        return status;
    }

    /** Tells the launcher what a rank is blocked in, from its endpoint: {@code endpoints} are ranks {@code first}... */
    static HangWatch.Sink tellingLauncher(final Endpoint[] endpoints, final int first, final EndpointAddress launcher) {
        return (rank, calls) -> {
            try {
                new LauncherMessage.Blocked(rank, calls).send(endpoints[rank - first], launcher);
            } catch (RuntimeException e) {
                // the launcher is lost: the job ends anyway
            }
        };
    }

    /**
     * The table of the job's ranks, once the launcher sends it. When none comes (one that does not fit the job, none
     * within {@link #LAUNCHER_WAIT_SECONDS}, the launcher lost), tells the launcher that the ranks {@code first}
     * onwards, whose endpoints are {@code endpoints}, have ended, failed, and throws: the launcher has their HELLO,
     * and would wait for their end for ever while their JVM lives on, as a deployed node's does.
     */
    static EndpointAddress[] awaitTable(
            final Launcher launcher, final Endpoint[] endpoints, final int first, final EndpointAddress launcherAt)
            throws InterruptedException {
        try {
            return launcher.table.get(LAUNCHER_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            final String why = e instanceof ExecutionException
                    ? e.getCause().getMessage()
                    : "no table of ranks came from the launcher within " + LAUNCHER_WAIT_SECONDS + " s";
            for (int i = 0; i < endpoints.length; i++) {
                try {
                    new LauncherMessage.Done(first + i, 1, "rank " + (first + i) + " could not start: " + why)
                            .send(endpoints[i], launcherAt);
                } catch (RuntimeException gone) {
                    // the launcher is gone: it learns nothing more
                }
            }
            throw new IllegalStateException("rank " + first + " could not start: " + why, e);
        }
    }

    /**
     * Tells the launcher the status of a System.exit (or Runtime.exit) in this JVM, and where the program called
     * it, before it ends: the JDK logs each
     * to the logger {@code java.lang.Runtime}, with the status, on the exiting thread, when that logger takes
     * debug records.
     */
    private static void reportExits(final Endpoint endpoint, final EndpointAddress launcher, final int rank) {
        final java.util.logging.Logger exits = java.util.logging.Logger.getLogger("java.lang.Runtime");
        exits.setLevel(Level.FINE);
        exits.setUseParentHandlers(false);
        exits.addHandler(new Handler() {
            @Override
            public void publish(final LogRecord record) {
                final Matcher m = record.getThrown() == null
                        ? null
                        : EXIT_STATUS.matcher(String.valueOf(record.getThrown().getMessage()));
                if (m != null && m.matches()) {
                    System.out.flush();
                    System.err.flush();
                    try {
                        new LauncherMessage.Exited(rank, Integer.parseInt(m.group(1)), caller(record.getThrown()))
                                .send(endpoint, launcher);
                    } catch (RuntimeException e) {
                        // the launcher is gone: it learns nothing more
                    }
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        });
        exitLogger = exits; // held: the JDK's reference to it is weak
    }

    private static final Pattern EXIT_STATUS = Pattern.compile("Runtime\\.exit\\((-?[0-9]+)\\)");

    /** Where the program called System.exit or Runtime.exit: the first frame of {@code t} outside the JDK's exit. */
    private static String caller(final Throwable t) {
        for (final StackTraceElement e : t.getStackTrace()) {
            final String c = e.getClassName();
            if (!c.equals("java.lang.Runtime") && !c.equals("java.lang.System") && !c.equals("java.lang.Shutdown")) {
                return e.toString();
            }
        }
        return "";
    }

    /** The error code of this JVM's rank that called Abort, or null if none did. */
    static Integer abortCode(final Fabric fabric) {
        return fabric.abortingRank() >= 0 ? fabric.abortCode() : null;
    }

    private static java.util.logging.Logger exitLogger;

    /** The host part of an endpoint's runtime address ({@code host:port}). */
    static String hostOf(final EndpointAddress a) {
        final String at = a.runtimeAddress();
        final int colon = at.lastIndexOf(':');
        return colon < 0 ? at : at.substring(0, colon);
    }

    /**
     * A stream whose whole lines (and what a flush pushes out) go to the launcher, each as an {@link
     * LauncherMessage.Output} frame of the standard error if {@code error}.
     */
    static PrintStream forwarding(
            final Endpoint endpoint, final EndpointAddress launcher, final int rank, final boolean error) {
        final OutputStream lines = new OutputStream() {
            private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

            @Override
            public synchronized void write(final int b) {
                pending.write(b);
                if (b == '\n') {
                    flush();
                }
            }

            @Override
            public synchronized void write(final byte[] b, final int off, final int len) {
                pending.write(b, off, len);
                for (int i = off + len - 1; i >= off; i--) {
                    if (b[i] == '\n') {
                        flush();
                        return;
                    }
                }
            }

            @Override
            public synchronized void flush() {
                if (pending.size() == 0) {
                    return;
                }
                final LauncherMessage output = new LauncherMessage.Output(rank, error, pending.toByteArray());
                pending.reset();
                try {
                    output.send(endpoint, launcher);
                } catch (RuntimeException e) {
                    // the launcher is gone: the output has nowhere to go, and the rank is stopped soon
                }
            }
        };
        return new PrintStream(lines, false, StandardCharsets.UTF_8);
    }

    /** What the launcher tells this rank: the table of ranks, that the job was aborted, that it may exit. */
    static final class Launcher {
        final CompletableFuture<EndpointAddress[]> table = new CompletableFuture<>();
        final CountDownLatch released = new CountDownLatch(1);
        private final Fabric fabric;
        /** Its loss is acted on once, though each endpoint of this JVM's ranks hears of it. */
        private final AtomicBoolean lost = new AtomicBoolean();

        volatile EndpointAddress address;

        Launcher(final Fabric fabric) {
            this.fabric = fabric;
        }

        void received(final ByteBuffer header, final ByteBuffer payload) {
            final LauncherMessage message;
            try {
                message = LauncherMessage.decode(header, payload);
            } catch (LauncherMessage.MalformedMessageException e) {
                LOG.warn("Dropped a frame from the launcher: {}", e.getMessage());
                return;
            }
            switch (message) {
                case LauncherMessage.Table t -> table(t);
                case LauncherMessage.Abort a -> fabric.abort(a.why());
                case LauncherMessage.Release r -> released.countDown();
                case LauncherMessage.FromRank f -> {
                    // a rank's message: not for a rank
                }
            }
        }

        /**
         * Takes the table of the job's ranks; one of another size (a launcher of another job, or one that counts
         * the ranks otherwise) fails this rank at once, saying so, rather than later at a send to a rank it lacks.
         */
        private void table(final LauncherMessage.Table t) {
            if (t.ranks().size() != fabric.size()) {
                table.completeExceptionally(new IllegalStateException(
                        "the launcher's table names " + t.ranks().size() + " ranks, and this job has " + fabric.size()
                                + ": the launcher and this rank disagree"));
                return;
            }
            table.complete(t.ranks().toArray(new EndpointAddress[0]));
        }

        /** The launcher is gone: the job is over; a rank still computing is stopped after the grace time. */
        void lost(final String runtimeId, final String reason) {
            final EndpointAddress a = address;
            if (a != null && a.runtimeId().equals(runtimeId) && lost.compareAndSet(false, true)) {
                fabric.abort("the launcher (mpjrun) was lost: " + reason);
                table.completeExceptionally(new IllegalStateException("the launcher was lost: " + reason));
                released.countDown();
                Thread.ofPlatform().daemon(true).start(() -> {
                    try {
                        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(ThreadsJob.ABORT_GRACE_NANOS));
                    } catch (InterruptedException e) {
                        return;
                    }
                    System.err.println("mpjrun: the launcher was lost (" + reason + "); this rank stops");
                    Runtime.getRuntime().halt(1);
                });
            }
        }
    }
}
