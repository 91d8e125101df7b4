package org.troupe.mpi.run;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;
import org.troupe.mpi.fabric.EndpointFabric;
import org.troupe.mpi.fabric.Fabric;
import org.troupe.mpi.fabric.RankBinding;

/**
 * The ranks of one JVM of a job in hybrid placement ({@code mpjrun -dev hybrid}, or {@code -descriptor FILE -ppn
 * K}): {@code HybridRanks LAUNCHER FIRST COUNT SIZE APP_CLASSPATH TAG MAIN [args]}. The ranks {@code FIRST} to
 * {@code FIRST + COUNT - 1} run as threads of this JVM, each with a class loader of its own as in {@code -dev
 * threads} (its statics, {@code MPI.COMM_WORLD} among them, are its own; its System.exit ends it, not the JVM), one
 * {@link Fabric} between them: their messages go from mailbox to mailbox. Each rank has an endpoint of its own to
 * the ranks of the other JVMs and to the launcher, which follows it as it follows a rank of {@code -dev jvm}
 * ({@link JvmRank}): HELLO, the table of ranks, DONE when its main ends, and the release once all have.
 */
public final class HybridRanks {
    private HybridRanks() {}

    public static void main(final String[] args) throws Exception {
        final List<URL> appClassPath = MpjRun.Options.classPath(args[4]);
        final boolean tag = Boolean.parseBoolean(args[5]);
        // The ranks' lines never mix, and carry their rank with -tag-output (the launcher copies them as they are).
        final RankOutput out = RankOutput.over(System.out, tag);
        final RankOutput err = RankOutput.over(System.err, tag);
        System.setOut(out.printStream());
        System.setErr(err.printStream());
        int status;
        try {
            status = run(
                    args[0],
                    Integer.parseInt(args[1]),
                    Integer.parseInt(args[2]),
                    Integer.parseInt(args[3]),
                    rankClassPath(appClassPath),
                    ApplicationClasses.of(appClassPath),
                    args[6],
                    Arrays.copyOfRange(args, 7, args.length),
                    false);
        } finally {
            System.out.flush();
            System.err.flush();
            out.flushLeftovers();
            err.flushLeftovers();
        }
        System.exit(status);
    }

    /** What a rank's class loader reads: the {@code mpi} classes first, then the program's class path. */
    static URL[] rankClassPath(final List<URL> appClassPath) {
        final List<URL> urls = new ArrayList<>();
        urls.add(MpjRun.mpiClasses());
        urls.addAll(appClassPath);
        return urls.toArray(new URL[0]);
    }

    /**
     * The entries of this JVM's class path that hold the program ({@code mainClass}, or a class of one of its
     * packages): where a deployed node's JVM has it (an SSH host may keep it elsewhere than the launcher's).
     */
    static List<URL> applicationEntries(final String mainClass, final ApplicationClasses application) {
        final List<String> probes = new ArrayList<>();
        probes.add(mainClass.replace('.', '/') + ".class");
        for (final String c : application.unnamedPackageClasses()) {
            probes.add(c + ".class");
        }
        final Set<URL> found = new LinkedHashSet<>();
        for (final String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            final URL url;
            try {
                url = Path.of(entry).toAbsolutePath().toUri().toURL();
            } catch (MalformedURLException | IllegalArgumentException e) {
                continue;
            }
            try (URLClassLoader probe = new URLClassLoader(new URL[] {url}, null)) {
                boolean holds = false;
                for (final String p : probes) {
                    holds |= probe.findResource(p) != null;
                }
                for (final String pkg : application.packages()) {
                    holds |= probe.findResource(pkg.replace('.', '/')) != null
                            || probe.findResource(pkg.replace('.', '/') + "/") != null;
                }
                if (holds) {
                    found.add(url);
                }
            } catch (IOException e) {
                // an entry that cannot be read holds nothing of the program
            }
        }
        return new ArrayList<>(found);
    }

    /**
     * Runs the ranks {@code first} to {@code first + count - 1} of a job of {@code size}, whose launcher's endpoint
     * is {@code launcherAt}, as threads of this JVM; returns the worst of their statuses once the launcher has let
     * them go. {@code forwardOutput}: their output goes to the launcher as frames, each rank's as its own (a deployed
     * node's JVM, whose own output goes to a log), else it is this JVM's.
     */
    static int run(
            final String launcherAt,
            final int first,
            final int count,
            final int size,
            final URL[] rankClassPath,
            final ApplicationClasses application,
            final String mainClass,
            final String[] programArgs,
            final boolean forwardOutput)
            throws Exception {
        final TroupeRuntime runtime = TroupeRuntime.get();
        final int[] ranks = new int[count];
        for (int i = 0; i < count; i++) {
            ranks[i] = first + i;
        }
        final EndpointFabric links =
                new EndpointFabric(ranks, size, runtime.config().serialization().maxMessageBytes());
        final Fabric fabric = new Fabric(size, ranks, links);
        links.attach(fabric);
        final JvmRank.Launcher launcher = new JvmRank.Launcher(fabric);
        final Endpoint[] endpoints = new Endpoint[count];
        for (int i = 0; i < count; i++) {
            final int rank = first + i;
            endpoints[i] = runtime.endpoints().open("mpi-rank-" + rank, new EndpointHandler() {
                @Override
                public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
                    if (LauncherMessage.isLauncherMessage(header)) {
                        launcher.received(header, payload);
                    } else {
                        links.received(rank, from, header, payload);
                    }
                }

                @Override
                public void runtimeLost(final String runtimeId, final String reason) {
                    links.runtimeLost(runtimeId, reason);
                    launcher.lost(runtimeId, reason);
                }
            });
            links.connect(rank, endpoints[i]);
        }
        final EndpointAddress launcherAddress = runtime.endpoints().lookup(launcherAt);
        if (runtime.metrics().enabled()) { // the launcher's console draws the job's traffic from these
            fabric.countIn(runtime.metrics().registry());
            runtime.reportMetricsTo(launcherAddress.runtimeAddress());
        }
        launcher.address = launcherAddress;
        links.onAbort(
                why -> { // from the endpoint of the rank it names: the launcher takes no other
                    final int by = fabric.abortingRank() >= 0 ? fabric.abortingRank() : first;
                    new LauncherMessage.Aborted(by, JvmRank.abortCode(fabric), why)
                            .send(endpoints[by - first], launcherAddress);
                });
        links.onFinished(r -> new LauncherMessage.Finalized(r).send(endpoints[r - first], launcherAddress));
        for (int i = 0; i < count; i++) {
            new LauncherMessage.Hello(first + i, endpoints[i].address()).send(endpoints[i], launcherAddress);
        }
        final EndpointAddress[] table;
        try {
            table = JvmRank.awaitTable(launcher, endpoints, first, launcherAddress);
        } catch (IllegalStateException e) {
            if (forwardOutput) { // a node's JVM lives on: the endpoints go with the ranks (a forked one exits)
                for (final Endpoint endpoint : endpoints) {
                    endpoint.close();
                }
            }
            throw e;
        }
        links.ranks(table);
        links.linkAhead(JvmRank.LINK_AHEAD_TIMEOUT);
        final String host = JvmRank.hostOf(endpoints[0].address());
        fabric.ranksOnThisHost((int)
                Arrays.stream(table).filter(a -> JvmRank.hostOf(a).equals(host)).count());

        final PrintStream savedOut = System.out;
        final PrintStream savedErr = System.err;
        if (forwardOutput) {
            final PrintStream[] outs = new PrintStream[count];
            final PrintStream[] errs = new PrintStream[count];
            for (int i = 0; i < count; i++) {
                outs[i] = JvmRank.forwarding(endpoints[i], launcherAddress, first + i, false);
                errs[i] = JvmRank.forwarding(endpoints[i], launcherAddress, first + i, true);
            }
            System.setOut(byRank(outs, first));
            System.setErr(byRank(errs, first));
        }
        // Each rank says DONE as its main ends (the launcher then tells the others of a failure at once), and once.
        final AtomicIntegerArray statuses = new AtomicIntegerArray(count);
        final AtomicIntegerArray told = new AtomicIntegerArray(count);
        final ThreadsJob.RankEnded done = r -> {
            final int rank = r.rank();
            if (!told.compareAndSet(rank - first, 0, 1)) {
                return;
            }
            final int status = r.failed() ? r.status() : 0; // mpjrun says the failure, with its stack trace
            statuses.set(rank - first, status);
            System.out.flush();
            System.err.flush();
            links.finished(rank);
            try {
                new LauncherMessage.Done(rank, status, r.failed() ? r.failure() : "")
                        .send(endpoints[rank - first], launcherAddress);
            } catch (RuntimeException e) {
                System.err.println("mpjrun: rank " + rank
                        + ": the launcher cannot be told that this rank has finished: " + e.getMessage());
                statuses.set(rank - first, 1);
            }
        };
        final ThreadsJob.Outcome outcome = ThreadsJob.run(
                fabric,
                ranks,
                rankClassPath,
                application,
                mainClass,
                programArgs,
                ThreadsJob.ABORT_GRACE_NANOS,
                done,
                JvmRank.tellingLauncher(endpoints, ranks[0], launcherAddress));
        for (final ThreadsJob.RankOutcome r : outcome.ranks()) {
            done.ended(r); // those left behind after an abort, which never said it
        }
        System.out.flush();
        System.err.flush();
        System.setOut(savedOut);
        System.setErr(savedErr);
        launcher.released.await(); // until the launcher lets every rank go, or is lost
        if (forwardOutput) { // a node's JVM lives on: frames for these ranks are dropped from now on
            for (final Endpoint e : endpoints) {
                e.close();
            }
        }
        int status = 0;
        for (int i = 0; i < count; i++) {
            status = Math.max(status, statuses.get(i));
        }
        return status;
    }

    /** A stream that writes to the stream of the rank of the calling thread ({@code streams[rank - first]}). */
    private static PrintStream byRank(final PrintStream[] streams, final int first) {
        final OutputStream dispatch = new OutputStream() {
            private PrintStream target() {
                final RankBinding b = RankBinding.current();
                final int i = b == null ? 0 : b.rank() - first;
                return i >= 0 && i < streams.length ? streams[i] : streams[0];
            }

            @Override
            public void write(final int b) {
                target().write(b);
            }

            @Override
            public void write(final byte[] b, final int off, final int len) {
                target().write(b, off, len);
            }

            @Override
            public void flush() {
                target().flush();
            }
        };
        return new PrintStream(dispatch, true, Charset.defaultCharset());
    }
}
