package org.troupe.mpi.run;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.troupe.mpi.fabric.Fabric;
import org.troupe.mpi.fabric.RankBinding;

/**
 * A job whose ranks are threads of this JVM ({@code bin/mpjrun -dev threads}): one platform thread and one class
 * loader per rank, one fabric between them. When a rank fails, the job is aborted: the other ranks' pending and
 * later MPI calls fail, and the job ends. A rank's System.exit ends that rank only ({@link RankExit}): as a failure,
 * but with status 0 after MPI.Finalize.
 */
public final class ThreadsJob {
    /** How long the other ranks get to end once one has failed. */
    static final long ABORT_GRACE_NANOS = TimeUnit.SECONDS.toNanos(5);

    /**
     * How a rank ended: normally (failure null), or failed, with the status a process of its own would exit with
     * (an Abort's error code, a System.exit's status, else 1) and when ({@code System.nanoTime}); {@code leftBehind}:
     * it was still running when the grace time after an abort ran out.
     */
    public record RankOutcome(int rank, String failure, int status, boolean leftBehind, long failedAtNanos) {
        public boolean failed() {
            return failure != null;
        }

        /** Whether it failed only by being left behind, having done nothing wrong before. */
        public boolean onlyLeftBehind() {
            return leftBehind && failure.startsWith(LEFT_BEHIND);
        }
    }

    private static final String LEFT_BEHIND = "still running ";

    /** How the job ended: each rank's outcome, and why it was aborted (a rank's Abort, say), or null. */
    public record Outcome(List<RankOutcome> ranks, String abortedBecause) {}

    private ThreadsJob() {}

    /**
     * Runs {@code mainClass}'s {@code main(args)} in {@code np} ranks and waits for them all.
     *
     * @param mpiClasses where the {@code mpi} classes are (this module's jar or classes directory)
     * @param appClassPath where the application's classes are
     */
    public static Outcome run(
            final int np,
            final URL mpiClasses,
            final List<URL> appClassPath,
            final String mainClass,
            final String[] args)
            throws InterruptedException {
        return run(np, mpiClasses, appClassPath, mainClass, args, ABORT_GRACE_NANOS, null, null);
    }

    /**
     * As {@link #run(int, URL, List, String, String[])}, the other ranks getting {@code graceNanos} after a failure,
     * {@code hangs} (if not null) told what the ranks are blocked in, and their traffic counted in {@code meters}
     * (if not null).
     */
    static Outcome run(
            final int np,
            final URL mpiClasses,
            final List<URL> appClassPath,
            final String mainClass,
            final String[] args,
            final long graceNanos,
            final HangReport hangs,
            final MeterRegistry meters)
            throws InterruptedException {
        final Fabric fabric = new Fabric(np);
        if (meters != null) {
            fabric.countIn(meters);
        }
        final URL[] urls = new URL[appClassPath.size() + 1];
        urls[0] = mpiClasses;
        for (int i = 0; i < appClassPath.size(); i++) {
            urls[i + 1] = appClassPath.get(i);
        }
        final int[] ranks = new int[np];
        for (int r = 0; r < np; r++) {
            ranks[r] = r;
        }
        return run(
                fabric,
                ranks,
                urls,
                ApplicationClasses.of(appClassPath),
                mainClass,
                args,
                graceNanos,
                r -> {
                    if (hangs != null) {
                        hangs.ended(r.rank());
                    }
                },
                hangs);
    }

    /** Told, on its own thread, that a rank's main has ended, and how. */
    interface RankEnded {
        void ended(RankOutcome outcome);
    }

    /**
     * Runs {@code mainClass}'s {@code main(args)} in the ranks {@code ranks} of {@code fabric}, each on a thread and
     * with a class loader of its own over {@code urls} (the {@code mpi} classes first, then the program's), and
     * waits for them all; {@code ended} hears of each as it ends, and {@code blocked} (if not null) what they are
     * blocked in ({@link HangWatch}). The outcomes are in the order of {@code ranks}.
     */
    static Outcome run(
            final Fabric fabric,
            final int[] ranks,
            final URL[] urls,
            final ApplicationClasses application,
            final String mainClass,
            final String[] args,
            final long graceNanos,
            final RankEnded ended,
            final HangWatch.Sink blocked)
            throws InterruptedException {
        final int np = ranks.length;
        final RankEnd[] ends = new RankEnd[np];
        final Thread[] threads = new Thread[np];
        final ThreadGroup[] groups = new ThreadGroup[np];
        final List<RankClassLoader> loaders = new ArrayList<>();
        for (int r = 0; r < np; r++) {
            final int rank = ranks[r];
            final RankEnd end = new RankEnd(fabric, rank);
            ends[r] = end;
            final RankClassLoader loader = new RankClassLoader(rank, urls, ThreadsJob.class.getClassLoader());
            loaders.add(loader);
            // A rank lives, as a process would, until its main returns and the threads it started (in its group)
            // that are not daemons have ended, or until one of its threads calls System.exit.
            final ThreadGroup group = new ThreadGroup("mpi-rank-" + rank) {
                @Override
                public void uncaughtException(final Thread t, final Throwable e) {
                    if (e instanceof RankExit exit) {
                        end.exited(exit, this);
                    } else {
                        super.uncaughtException(t, e);
                    }
                }
            };
            groups[r] = group;
            // Not a daemon, so that the threads the rank starts are not either (they inherit it), as in a process.
            threads[r] = Thread.ofPlatform()
                    .group(group)
                    .name("mpi-rank-" + rank)
                    .daemon(false)
                    .unstarted(() -> {
                        RankBinding.bind(new RankBinding(
                                fabric, rank, application.packages(), application.unnamedPackageClasses()));
                        try {
                            runMain(loader, mainClass, args);
                            awaitOthersIn(group);
                            end.returned();
                        } catch (RankExit exit) {
                            end.exited(exit, group);
                        } catch (Throwable t) {
                            end.failed(t);
                        }
                        ended.ended(end.outcome(false, graceNanos));
                    });
            threads[r].setContextClassLoader(loader);
        }
        for (final Thread t : threads) {
            t.start();
        }
        final HangWatch watch = blocked == null
                ? null
                : new HangWatch(
                        fabric, ranks, rank -> HangWatch.nonDaemonThreads(groups[indexOf(ranks, rank)]), blocked);
        try {
            awaitRanks(fabric, threads, graceNanos);
        } finally {
            if (watch != null) {
                watch.close();
            }
        }
        final List<RankOutcome> outcomes = new ArrayList<>();
        for (int r = 0; r < np; r++) {
            // Decided before the interrupt: a rank that ends on it was left behind all the same (and a thread
            // that has ended has no group to interrupt).
            final boolean leftBehind = threads[r].isAlive();
            if (leftBehind) {
                groups[r].interrupt(); // asked to stop, as far as it listens
            }
            outcomes.add(ends[r].outcome(leftBehind, graceNanos));
        }
        for (final RankClassLoader l : loaders) {
            try {
                l.close();
            } catch (IOException e) {
                // nothing to do: the job is over
            }
        }
        return new Outcome(outcomes, fabric.abortedBecause());
    }

    /** Waits for the ranks' threads, or until {@code graceNanos} after the job is aborted. */
    private static void awaitRanks(final Fabric fabric, final Thread[] threads, final long graceNanos)
            throws InterruptedException {
        long abortedAt = 0;
        for (final Thread t : threads) {
            while (t.isAlive()) {
                t.join(10);
                if (fabric.isAborted() && abortedAt == 0) {
                    abortedAt = System.nanoTime();
                }
                if (abortedAt != 0 && System.nanoTime() - abortedAt > graceNanos) {
                    break; // a rank that computes without calling MPI: the job ends without it
                }
            }
        }
    }

    private static int indexOf(final int[] ranks, final int rank) {
        return rank - ranks[0]; // a JVM's ranks are consecutive
    }

    /** Waits for the threads of {@code group} that are not daemons, but this one. */
    private static void awaitOthersIn(final ThreadGroup group) throws InterruptedException {
        while (true) {
            final Thread[] all = new Thread[group.activeCount() + 8];
            final int n = group.enumerate(all, true);
            Thread other = null;
            for (int i = 0; i < n; i++) {
                if (all[i] != Thread.currentThread() && !all[i].isDaemon() && all[i].isAlive()) {
                    other = all[i];
                    break;
                }
            }
            if (other == null) {
                return;
            }
            other.join();
        }
    }

    /** Runs {@code mainClass}'s {@code main(args)}, loaded by {@code loader}; throws what main throws. */
    static void runMain(final ClassLoader loader, final String mainClass, final String[] args) throws Throwable {
        final Class<?> c;
        try {
            c = Class.forName(mainClass, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException(
                    "main class " + mainClass + " is not on the class path given to" + " the job (-cp)", e);
        }
        final Method main;
        try {
            main = c.getMethod("main", String[].class);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(mainClass + " has no public static void main(String[])", e);
        }
        if (!Modifier.isStatic(main.getModifiers())) {
            throw new IllegalArgumentException(mainClass + ".main is not static");
        }
        try {
            main.invoke(null, (Object) args.clone());
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** How a rank ended, as its threads tell. */
    private static final class RankEnd {
        private final Fabric fabric;
        private final int rank;
        /** One of its threads called System.exit: what the others throw next, as they are stopped, is no failure. */
        private boolean exited;

        private String failure;
        private int status;
        private long failedAt;

        RankEnd(final Fabric fabric, final int rank) {
            this.fabric = fabric;
            this.rank = rank;
        }

        synchronized void failed(final Throwable t) {
            if (!exited && failure == null) {
                fail(describe(t), 1);
                if (!fabric.hasFinalized(rank)) { // after it, the others' MPI calls cannot depend on this rank
                    fabric.abort("rank " + rank + " failed: " + t);
                }
            }
        }

        private void fail(final String why, final int withStatus) {
            failure = why;
            status = withStatus;
            failedAt = System.nanoTime();
        }

        /**
         * Its main and its threads have ended: a rank that started MPI and did not finalize it has failed, as
         * {@code mpirun} says of a process that exits so, and the others, who may wait for it, are stopped (unless
         * the job was aborted already: nothing is left to finalize then).
         */
        synchronized void returned() {
            if (failure == null && fabric.isStartedOnly(rank) && !fabric.isAborted()) {
                fail(JobReport.NO_FINALIZE, 1);
                fabric.abort("rank " + rank + " " + JobReport.NO_FINALIZE);
            }
        }

        /** How it ended; one that called Abort failed with its error code, whatever it did next. */
        synchronized RankOutcome outcome(final boolean leftBehind, final long graceNanos) {
            if (fabric.abortingRank() == rank) {
                return new RankOutcome(
                        rank,
                        JobReport.calledAbort(fabric.abortCode()),
                        JobReport.exitStatus(fabric.abortCode()),
                        leftBehind,
                        fabric.abortCalledAtNanos());
            }
            if (leftBehind) {
                return new RankOutcome(
                        rank,
                        LEFT_BEHIND + TimeUnit.NANOSECONDS.toMillis(graceNanos)
                                + " ms after the job was aborted, outside any MPI call; it was left behind",
                        1,
                        true,
                        Long.MAX_VALUE);
            }
            return new RankOutcome(rank, failure, status, false, failedAt);
        }

        /**
         * A thread of the rank, in {@code group}, called System.exit (or Runtime.exit, halt): as for a process, the
         * rank has ended, and failed, unless with status 0 after MPI.Finalize; before MPI.Finalize, that aborts the
         * job. Its other threads are asked to stop.
         */
        synchronized void exited(final RankExit exit, final ThreadGroup group) {
            if (exited || failure != null) {
                return;
            }
            exited = true;
            final boolean finalized = fabric.hasFinalized(rank);
            if (exit.status() != 0 || !finalized) {
                fail(
                        JobReport.calledExit(exit.getMessage(), exit.status(), exit.where()),
                        JobReport.exitStatus(exit.status()));
            }
            if (!finalized) { // after it, the others' MPI calls cannot depend on this rank: they go on
                fabric.abort("rank " + rank + " called " + exit.getMessage());
            }
            group.interrupt();
        }
    }

    /**
     * A throwable's stack trace, as printed, without the frames of the launcher that called the program's main
     * (its thread's run, reflection, this package's), which tell the user nothing.
     */
    static String describe(final Throwable t) {
        final StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return RANK_LOADER
                .matcher(LAUNCHER_FRAME.matcher(w.toString()).replaceAll(""))
                .replaceAll("")
                .strip();
    }

    /** The name of a rank's class loader in a frame ({@code mpi-rank-2//Main.main}): as JVMs, frames have none. */
    private static final Pattern RANK_LOADER = Pattern.compile("(?m)(?<=^\\s{1,8}at )mpi-rank-\\d+//");

    private static final Pattern LAUNCHER_FRAME = Pattern.compile(
            "(?m)^\\s+at (java\\.base/)?(jdk\\.internal\\.reflect\\.|java\\.lang\\.reflect\\.|org\\.troupe\\.mpi\\.run\\."
                    + "|java\\.lang\\.Thread\\.run).*\\R");
}
