package org.troupe.bench.mpi;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.troupe.bench.BenchFailure;
import org.troupe.bench.BusyLoad;
import org.troupe.bench.JvmFlags;
import org.troupe.bench.ResultSink;
import org.troupe.bench.Suite;
import org.troupe.mpi.run.ThreadsJob;

/**
 * MPI programs ({@code import mpi.*}) run as jobs of ranks on threads and on JVMs: ping-pong between two ranks from 1 byte to
 * 4 MiB, Sendrecv both ways at once of 1 KiB, 32 KiB and 1 MiB, and Allreduce and Bcast of 1, 1024 and 131072
 * doubles on two ranks. Ping-pong and Sendrecv also run in hybrid placement ({@code -dev hybrid}): one rank per
 * JVM (across JVMs), then both in one JVM (rows {@code "mode":"hybrid"} with their {@code "ppn"}). When Open MPI's {@code mpicc} and
 * {@code mpirun} are on the path, the same programs in C run in the same run over Open MPI's shared memory and over
 * its TCP transport ({@code --mca btl tcp,self}), so that every ratio is taken side by side. {@code pingpong-loaded}
 * runs the ping-pong at 1 byte and 64 KiB while another JVM keeps two busy threads per core spinning, against
 * blocking hand-offs under the same load (rows {@code blocking-queue} and {@code blocking-socket}).
 * {@code first-message} starts jobs of {@value #FIRST_NP} ranks as JVMs and times each rank's first exchange with each
 * other rank (mode {@code jvm-first}) against the same exchange later in the job ({@code jvm-later}).
 */
public final class MpiSuite implements Suite {
    static final String PINGPONG = "pingpong";
    static final String SENDRECV = "sendrecv";
    static final String PINGPONG_LOADED = "pingpong-loaded";
    /** The sizes of {@value #PINGPONG_LOADED}. */
    static final int[] LOADED_BYTES = {1, 65_536};
    /** How long {@value #PINGPONG_LOADED}'s busy load may run at most, should the case hang. */
    private static final long LOAD_MAX_SECONDS = 300;

    static final String ALLREDUCE = "allreduce";
    static final String BCAST = "bcast";
    static final String FIRST_MESSAGE = "first-message";
    /** The ranks of a {@value #FIRST_MESSAGE} job: 12 first exchanges each. */
    private static final int FIRST_NP = 4;

    static final int[] PINGPONG_BYTES = {1, 16, 256, 4096, 65_536, 1 << 20, 4 << 20};
    static final int[] SENDRECV_BYTES = {1024, 32 * 1024, 1 << 20};
    static final int[] COLLECTIVE_DOUBLES = {1, 1024, 131_072};
    private static final int NP = 2;

    @Override
    public String name() {
        return "mpi";
    }

    @Override
    public String summary() {
        return "MPI programs as jobs of threads and of JVMs: ping-pong, Allreduce and Bcast (against Open MPI if there)";
    }

    @Override
    public List<String> cases() {
        return List.of(PINGPONG, SENDRECV, PINGPONG_LOADED, ALLREDUCE, BCAST, FIRST_MESSAGE);
    }

    @Override
    public void run(final boolean quick, final List<String> cases, final ResultSink sink) throws BenchFailure {
        final Path openMpi = OpenMpi.compile();
        for (final String c : cases) {
            if (c.equals(PINGPONG_LOADED)) {
                loaded(quick, sink);
                continue;
            }
            if (c.equals(FIRST_MESSAGE)) {
                firstMessages(quick, sink);
                continue;
            }
            System.err.println("mpi: " + c + ": " + NP + " ranks as threads");
            accept(sink, c, "troupe", "threads", job(c, quick));
            System.err.println("mpi: " + c + ": " + NP + " ranks as JVMs");
            accept(sink, c, "troupe", "jvm", jvmJob(c, quick, "jvm", 0));
            if (c.equals(PINGPONG) || c.equals(SENDRECV)) {
                // Hybrid placement: one rank in each of two JVMs (across JVMs), then both ranks in one JVM.
                for (final int ppn : new int[] {1, NP}) {
                    System.err.println("mpi: " + c + ": " + NP + " ranks, hybrid, " + ppn + " per JVM");
                    accept(sink, c, "troupe", "hybrid", ppn, jvmJob(c, quick, "hybrid", ppn));
                }
            }
            if (openMpi != null) {
                System.err.println("mpi: " + c + ": Open MPI, shared memory and TCP");
                accept(sink, c, "openmpi", "shm", OpenMpi.run(openMpi, NP, false, c, quick));
                accept(sink, c, "openmpi", "tcp", OpenMpi.run(openMpi, NP, true, c, quick));
            }
        }
    }

    /**
     * {@value #PINGPONG_LOADED}: the ping-pong as threads and as JVMs, a {@link java.util.concurrent.SynchronousQueue}
     * hand-off between two threads and blocking sockets between two JVMs, all while another JVM keeps two busy
     * threads per core spinning.
     */
    private static void loaded(final boolean quick, final ResultSink sink) throws BenchFailure {
        final String c = PINGPONG_LOADED;
        try (BusyLoad load = BusyLoad.start(LOAD_MAX_SECONDS)) {
            System.err.println("mpi: " + c + ": " + NP + " ranks as threads");
            accept(sink, c, "troupe", "threads", job(c, quick));
            System.err.println("mpi: " + c + ": " + NP + " ranks as JVMs");
            accept(sink, c, "troupe", "jvm", jvmJob(c, quick, "jvm", 0));
            System.err.println("mpi: " + c + ": blocking queue and blocking sockets");
            accept(sink, c, "blocking-queue", "threads", BlockingPingPong.queue(loadedSamples(quick)));
            accept(sink, c, "blocking-socket", "jvm", BlockingPingPong.sockets(loadedSamples(quick)));
        }
    }

    /**
     * {@value #FIRST_MESSAGE}: jobs of {@value #FIRST_NP} ranks as JVMs (5, or 10 without quick), each rank's first
     * exchange with each other rank and the same exchange later; median and p99 over all jobs' exchanges.
     */
    private static void firstMessages(final boolean quick, final ResultSink sink) throws BenchFailure {
        final List<Double> first = new ArrayList<>();
        final List<Double> later = new ArrayList<>();
        String transport = null;
        final int jobs = quick ? 5 : 10;
        for (int j = 0; j < jobs; j++) {
            System.err.println(
                    "mpi: " + FIRST_MESSAGE + ": job " + (j + 1) + " of " + jobs + ", " + FIRST_NP + " ranks as JVMs");
            for (final String line : jvmJob(FIRST_MESSAGE, quick, "jvm", 0, FIRST_NP)) {
                final String[] f = line.trim().split(" ");
                (f[0].equals("first") ? first : later).add(Double.parseDouble(f[1]));
                transport = f.length > 2 ? f[2] : null;
            }
        }
        for (final List<Double> times : List.of(first, later)) {
            final double[] t =
                    times.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            sink.accept(new MpiFigure(
                    FIRST_MESSAGE,
                    "troupe",
                    times == first ? "jvm-first" : "jvm-later",
                    FIRST_NP,
                    1,
                    t[t.length / 2],
                    t[(int) Math.ceil(t.length * 0.99) - 1],
                    0,
                    transport));
        }
    }

    /**
     * Timed round trips per size under load, after as many untimed: fewer than idle, as each may take a scheduler's
     * time slice.
     */
    static int loadedSamples(final boolean quick) {
        return quick ? 1_000 : 5_000;
    }

    private static void accept(
            final ResultSink sink,
            final String benchCase,
            final String impl,
            final String mode,
            final List<String> lines) {
        accept(sink, benchCase, impl, mode, 0, lines);
    }

    /** {@code ppn}: the ranks per JVM of a hybrid row, else 0. */
    private static void accept(
            final ResultSink sink,
            final String benchCase,
            final String impl,
            final String mode,
            final int ppn,
            final List<String> lines) {
        // JVMs of one rank each say what linked them; ranks sharing a JVM (threads, hybrid of 2) need no link.
        final boolean linked = (mode.equals("jvm") || ppn == 1) && impl.equals("troupe");
        for (final String line : lines) {
            final String[] f = line.trim().split(" ");
            sink.accept(new MpiFigure(
                    benchCase,
                    impl,
                    mode,
                    NP,
                    Integer.parseInt(f[0]),
                    Double.parseDouble(f[1]),
                    Double.parseDouble(f[2]),
                    ppn,
                    linked && f.length > 3 ? f[3] : null));
        }
    }

    /** The program as a job of threads, in this JVM. */
    private static List<String> job(final String benchCase, final boolean quick) throws BenchFailure {
        return figures(benchCase, out -> {
            final URL mpi =
                    ThreadsJob.class.getProtectionDomain().getCodeSource().getLocation();
            final URL bench =
                    MpiRank.class.getProtectionDomain().getCodeSource().getLocation();
            for (final ThreadsJob.RankOutcome r : ThreadsJob.run(
                            NP, mpi, List.of(bench), MpiRank.class.getName(), args(benchCase, quick, out))
                    .ranks()) {
                if (r.failed()) {
                    throw new BenchFailure("rank " + r.rank() + " of the " + benchCase + " job failed: " + r.failure());
                }
            }
        });
    }

    /**
     * The same program as a job of JVMs: bin/mpjrun -dev {@code dev} (jvm, or hybrid with {@code ppn} ranks per
     * JVM), run as a process of its own.
     */
    private static List<String> jvmJob(final String benchCase, final boolean quick, final String dev, final int ppn)
            throws BenchFailure {
        return jvmJob(benchCase, quick, dev, ppn, NP);
    }

    private static List<String> jvmJob(
            final String benchCase, final boolean quick, final String dev, final int ppn, final int np)
            throws BenchFailure {
        return figures(benchCase, out -> {
            final List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            command.addAll(JvmFlags.inherited());
            command.addAll(List.of(
                    "-cp",
                    System.getProperty("java.class.path"),
                    "org.troupe.mpi.run.MpjRun",
                    "-np",
                    String.valueOf(np),
                    "-dev",
                    dev));
            if (ppn > 0) {
                command.addAll(List.of("-ppn", String.valueOf(ppn)));
            }
            command.addAll(List.of(
                    "-cp",
                    Path.of(MpiRank.class
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI())
                            .toString(),
                    MpiRank.class.getName()));
            command.addAll(List.of(args(benchCase, quick, out)));
            final Process p = new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            try {
                if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    throw new BenchFailure(
                            "the " + benchCase + " job of JVMs (-dev " + dev + ") failed (its output is above)");
                }
            } finally {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        });
    }

    private static String[] args(final String benchCase, final boolean quick, final Path figures) {
        return new String[] {benchCase, String.valueOf(quick), figures.toString()};
    }

    /** A job that leaves rank 0's figures in the file it is given. */
    private interface Job {
        void run(Path figures) throws Exception;
    }

    /** Runs {@code job} with a file for its figures, and returns their lines. */
    private static List<String> figures(final String benchCase, final Job job) throws BenchFailure {
        try {
            final Path out = Files.createTempFile("troupe-mpi-bench", ".txt");
            try {
                job.run(out);
                return Files.readAllLines(out, StandardCharsets.UTF_8);
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (BenchFailure e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailure("interrupted", e);
        } catch (Exception e) {
            throw new BenchFailure("the " + benchCase + " job: " + e.getMessage(), e);
        }
    }
}
