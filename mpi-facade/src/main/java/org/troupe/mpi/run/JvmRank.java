package org.troupe.mpi.run;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;
import org.troupe.core.spi.Endpoints;
import org.troupe.mpi.fabric.EndpointFabric;
import org.troupe.mpi.fabric.Fabric;
import org.troupe.mpi.fabric.RankBinding;

/**
 * One rank of a job run as JVMs ({@code mpjrun -dev jvm}): {@code JvmRank LAUNCHER RANK SIZE APP_CLASSPATH MAIN
 * [args]}. It opens its endpoint, tells the launcher where it is, learns where the others are, runs the program,
 * says it has finished, and exits once the launcher lets it (so that nothing it sent is lost with its JVM).
 */
public final class JvmRank {
    /** How long a rank waits for the launcher's table of ranks. */
    static final long LAUNCHER_WAIT_SECONDS = 60;

    private JvmRank() {
    }

    public static void main(final String[] args) throws Exception {
        final String launcherAt = args[0];
        final int rank = Integer.parseInt(args[1]);
        final int size = Integer.parseInt(args[2]);
        final String appClassPath = args[3];
        final String mainClass = args[4];
        final String[] programArgs = Arrays.copyOfRange(args, 5, args.length);

        final TroupeRuntime runtime = TroupeRuntime.get(); // the launcher's secret came in the environment
        final EndpointFabric links = new EndpointFabric(rank, size,
            runtime.config().serialization().maxMessageBytes());
        final Fabric fabric = new Fabric(size, rank, links);
        links.attach(fabric);
        final Launcher launcher = new Launcher(fabric);
        final Endpoint endpoint = Endpoints.get().open("mpi-rank-" + rank, new EndpointHandler() {
            @Override
            public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
                if (header.remaining() == 1) {
                    launcher.received(header.get(header.position()), payload);
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
        final EndpointAddress launcherAddress = Endpoints.get().lookup(launcherAt);
        launcher.address = launcherAddress;
        links.onAbort(why -> endpoint.send(launcherAddress, JvmJob.header(JvmJob.ABORTED),
            JvmJob.text(rank + "\n" + why), false));
        endpoint.send(launcherAddress, JvmJob.header(JvmJob.HELLO),
            JvmJob.text(rank + "\n" + JvmJob.format(endpoint.address())), false);
        final EndpointAddress[] table = launcher.table.get(LAUNCHER_WAIT_SECONDS, TimeUnit.SECONDS);
        links.ranks(table);

        final List<java.net.URL> classPath = MpjRun.Options.classPath(appClassPath);
        final ApplicationClasses application = ApplicationClasses.of(classPath);
        RankBinding.bind(new RankBinding(fabric, rank, application.packages(), application.unnamedPackageClasses()));
        int status = 0;
        String failure = "";
        try {
            ThreadsJob.runMain(JvmRank.class.getClassLoader(), mainClass, programArgs);
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
            failure = t.toString();
        }
        final String aborted = fabric.abortedBecause();
        if (status == 0 && aborted != null && aborted.startsWith("rank " + rank + " called Abort")) {
            status = 1; // this rank ended the job: its Abort fails it, even caught
            failure = aborted;
        }
        System.out.flush();
        System.err.flush();
        links.finished();
        try {
            endpoint.send(launcherAddress, JvmJob.header(JvmJob.DONE),
                JvmJob.text(rank + "\n" + status + "\n" + failure.replace('\n', ' ')), false);
            launcher.released.await(); // until the launcher lets every rank go, or is lost
        } catch (RuntimeException e) {
            System.err.println("mpjrun: rank " + rank + ": the launcher cannot be told that this rank has finished: "
                + e.getMessage());
            status = Math.max(status, 1);
        }
        System.exit(status);
    }

    /** What the launcher tells this rank: the table of ranks, that the job was aborted, that it may exit. */
    private static final class Launcher {
        final CompletableFuture<EndpointAddress[]> table = new CompletableFuture<>();
        final CountDownLatch released = new CountDownLatch(1);
        private final Fabric fabric;
        volatile EndpointAddress address;

        Launcher(final Fabric fabric) {
            this.fabric = fabric;
        }

        void received(final byte type, final ByteBuffer payload) {
            final String text = StandardCharsets.UTF_8.decode(payload.duplicate()).toString();
            switch (type) {
                case JvmJob.TABLE -> table.complete(text.lines().map(JvmJob::parse).toArray(EndpointAddress[]::new));
                case JvmJob.ABORT -> fabric.abort(text);
                case JvmJob.RELEASE -> released.countDown();
                default -> {
                    // not for this version
                }
            }
        }

        /** The launcher is gone: the job is over; a rank still computing is stopped after the grace time. */
        void lost(final String runtimeId, final String reason) {
            final EndpointAddress a = address;
            if (a != null && a.runtimeId().equals(runtimeId)) {
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
