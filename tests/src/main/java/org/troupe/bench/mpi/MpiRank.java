package org.troupe.bench.mpi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The MPI program the mpi suite runs as a job: {@code MpiRank CASE QUICK FILE}. Rank 0 writes one line per size to
 * {@code FILE}: {@code bytes median_us p99_us}. Each rank is a program of its own (its own class loader), so the
 * figures leave through a file, not through the suite's objects.
 */
public final class MpiRank {
    private MpiRank() {}

    public static void main(final String[] args) throws MPIException, IOException {
        MPI.Init(args);
        final String benchCase = args[0];
        final boolean quick = Boolean.parseBoolean(args[1]);
        final Intracomm world = MPI.COMM_WORLD;
        final StringBuilder lines = new StringBuilder();
        switch (benchCase) {
            case MpiSuite.PINGPONG -> {
                for (final int bytes : MpiSuite.PINGPONG_BYTES) {
                    final int samples = samples(bytes, quick);
                    lines.append(pingPong(world, bytes, samples, warmup(samples)));
                }
            }
            case MpiSuite.PINGPONG_LOADED -> {
                for (final int bytes : MpiSuite.LOADED_BYTES) {
                    final int samples = MpiSuite.loadedSamples(quick);
                    lines.append(pingPong(world, bytes, samples, samples));
                }
            }
            case MpiSuite.SENDRECV -> {
                for (final int bytes : MpiSuite.SENDRECV_BYTES) {
                    lines.append(sendRecv(world, bytes, quick));
                }
            }
            case MpiSuite.ALLREDUCE, MpiSuite.BCAST -> {
                for (final int doubles : MpiSuite.COLLECTIVE_DOUBLES) {
                    lines.append(collective(world, benchCase, doubles, quick));
                }
            }
            case MpiSuite.FIRST_MESSAGE -> lines.append(firstMessages(world));
            default -> throw new IllegalArgumentException("no case " + benchCase);
        }
        if (world.Rank() == 0) {
            final String transport = transport();
            Files.writeString(
                    Path.of(args[2]), lines.toString().replace("\n", " " + transport + "\n"), StandardCharsets.UTF_8);
        }
        MPI.Finalize();
    }

    /**
     * What carried this JVM's messages to the other JVMs: {@code shm} if it maps a shared-memory link's ring file
     * (removed from its directory once mapped), else {@code tcp}. Meaningless for ranks of one JVM.
     */
    private static String transport() throws IOException {
        try (var maps = Files.lines(Path.of("/proc/self/maps"))) {
            return maps.anyMatch(l -> l.contains("/troupe-") && l.endsWith("(deleted)")) ? "shm" : "tcp";
        }
    }

    /** Half round trips between ranks 0 and 1 of {@code bytes}: median and p99, in microseconds. */
    private static String pingPong(final Intracomm world, final int bytes, final int samples, final int warmup)
            throws MPIException {
        final byte[] buf = new byte[bytes];
        final int rank = world.Rank();
        final long[] times = new long[samples];
        for (int i = -warmup; i < samples; i++) {
            final long t0 = System.nanoTime();
            if (rank == 0) {
                world.Send(buf, 0, bytes, MPI.BYTE, 1, 1);
                world.Recv(buf, 0, bytes, MPI.BYTE, 1, 1);
            } else if (rank == 1) {
                world.Recv(buf, 0, bytes, MPI.BYTE, 0, 1);
                world.Send(buf, 0, bytes, MPI.BYTE, 0, 1);
            }
            if (i >= 0) {
                times[i] = System.nanoTime() - t0;
            }
        }
        return line(bytes, times, 2);
    }

    /**
     * Exchanges of {@code bytes} each way at once between ranks 0 and 1, both calling Sendrecv: median and p99 of
     * one exchange, in microseconds (rank 0's view). Each exchange starts when both have come to it, so no barrier.
     */
    private static String sendRecv(final Intracomm world, final int bytes, final boolean quick) throws MPIException {
        final byte[] out = new byte[bytes];
        final byte[] in = new byte[bytes];
        final int rank = world.Rank();
        final int peer = 1 - rank;
        final int samples = samples(bytes, quick);
        final long[] times = new long[samples];
        for (int i = -warmup(samples); i < samples; i++) {
            final long t0 = System.nanoTime();
            if (rank <= 1) {
                world.Sendrecv(out, 0, bytes, MPI.BYTE, peer, 2, in, 0, bytes, MPI.BYTE, peer, 2);
            }
            if (i >= 0) {
                times[i] = System.nanoTime() - t0;
            }
        }
        return line(bytes, times, 1);
    }

    private static String collective(
            final Intracomm world, final String benchCase, final int doubles, final boolean quick) throws MPIException {
        final double[] in = new double[doubles];
        final double[] out = new double[doubles];
        Arrays.fill(in, world.Rank());
        final int samples = samples(8 * doubles, quick);
        final long[] times = new long[samples];
        for (int i = -warmup(samples); i < samples; i++) {
            world.Barrier(); // every rank starts each operation together
            final long t0 = System.nanoTime();
            if (benchCase.equals(MpiSuite.ALLREDUCE)) {
                world.Allreduce(in, 0, out, 0, doubles, MPI.DOUBLE, MPI.SUM);
            } else {
                world.Bcast(in, 0, doubles, MPI.DOUBLE, 0);
            }
            if (i >= 0) {
                times[i] = System.nanoTime() - t0;
            }
        }
        // Rank 0's view, as the ping-pong's: the time from its start to its own completion.
        return line(8 * doubles, times, 1);
    }

    /**
     * Each rank's first exchange of 1 byte with each other rank, as a program that times its first messages sees it
     * (no barrier before: that would exchange first), then the same exchanges once {@value #LATER_ROUNDS} rounds
     * have passed: lines {@code first us} and {@code later us}, of every rank, gathered at rank 0. The partners
     * follow a pairwise schedule (rank XOR k), so each exchange waits for one partner only; the size is a power of 2.
     */
    private static String firstMessages(final Intracomm world) throws MPIException {
        final int rank = world.Rank();
        final int size = world.Size();
        final long[] mine = new long[2 * (size - 1)];
        final byte[] out = new byte[1];
        final byte[] in = new byte[1];
        for (int round = 0; round <= LATER_ROUNDS; round++) {
            for (int k = 1; k < size; k++) {
                final long t0 = System.nanoTime();
                world.Sendrecv(out, 0, 1, MPI.BYTE, rank ^ k, 3, in, 0, 1, MPI.BYTE, rank ^ k, 3);
                final long t = System.nanoTime() - t0;
                if (round == 0) {
                    mine[k - 1] = t;
                } else if (round == LATER_ROUNDS) {
                    mine[size - 1 + k - 1] = t;
                }
            }
        }
        final long[] all = new long[mine.length * size];
        world.Gather(mine, 0, mine.length, MPI.LONG, all, 0, mine.length, MPI.LONG, 0);
        final StringBuilder lines = new StringBuilder();
        for (int i = 0; i < all.length; i++) {
            final boolean first = i % mine.length < size - 1;
            lines.append(first ? "first " : "later ")
                    .append(String.format(Locale.ROOT, "%.2f", all[i] / 1e3))
                    .append('\n');
        }
        return lines.toString();
    }

    /** The round whose exchanges are the later ones of {@link #firstMessages}. */
    private static final int LATER_ROUNDS = 200;

    /** Enough samples for a p99, fewer for large messages; quick mode takes half of them. */
    private static int samples(final int bytes, final boolean quick) {
        final int n = bytes >= (1 << 20) ? 400 : bytes >= (1 << 16) ? 4_000 : 40_000;
        return quick ? n / 2 : n;
    }

    /** Untimed operations first, so that the JIT has compiled the path before it is timed (the same on every rank). */
    private static int warmup(final int samples) {
        return 3 * samples;
    }

    static String line(final int bytes, final long[] times, final int divisor) {
        Arrays.sort(times);
        final double median = times[times.length / 2] / 1e3 / divisor;
        final double p99 = times[(int) Math.ceil(times.length * 0.99) - 1] / 1e3 / divisor;
        return String.format(Locale.ROOT, "%d %.4f %.4f%n", bytes, median, p99);
    }
}
