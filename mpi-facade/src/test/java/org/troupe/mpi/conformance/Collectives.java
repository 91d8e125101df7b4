package org.troupe.mpi.conformance;

import java.util.Arrays;
import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.User_function;

/** The collectives and communicator making, for any number of ranks, every root. */
public final class Collectives {
    private Collectives() {}

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final int size = world.Size();
        for (int root = 0; root < size; root++) {
            bcastAndReduce(world, rank, size, root);
            gatherAndScatter(world, rank, size, root);
        }
        allCollectives(world, rank, size);
        largeAllreduce(world, rank, size);
        userOps(world, rank, size);
        refusedByTheRoot(world, rank, size);
        communicators(world, rank, size);
        world.Barrier();
        MPI.Finalize();
    }

    /**
     * Large reductions (a ring of partial sums on larger communicators): into the middle of the buffers, with counts
     * that the ranks do not divide, of pairs too; every element is right, and every rank has the same.
     */
    private static void largeAllreduce(final Intracomm world, final int rank, final int size) throws MPIException {
        final int n = 100_003;
        final double[] in = new double[n + 2];
        final double[] out = new double[n + 5];
        for (int i = 0; i < n; i++) {
            in[2 + i] = rank * 1_000_000.0 + i; // integers: the sum is exact in any order
        }
        world.Allreduce(in, 2, out, 5, n, MPI.DOUBLE, MPI.SUM);
        final double ranks = size * (size - 1) / 2.0;
        for (int i = 0; i < n; i++) {
            if (out[5 + i] != ranks * 1_000_000.0 + (double) size * i) {
                Check.equal(ranks * 1_000_000.0 + (double) size * i, out[5 + i], "large Allreduce SUM element " + i);
            }
        }
        Check.equal(0.0, out[4], "nothing written before the offset");
        final int pairs = 40_001;
        final int[] mine = new int[2 * pairs];
        for (int i = 0; i < pairs; i++) {
            mine[2 * i] = (i + rank) % size; // the largest value, size - 1, is held by the rank (size - 1 - i) mod size
            mine[2 * i + 1] = rank;
        }
        final int[] best = new int[2 * pairs];
        world.Allreduce(mine, 0, best, 0, pairs, MPI.INT2, MPI.MAXLOC);
        for (int i = 0; i < pairs; i++) {
            final int holder = Math.floorMod(size - 1 - i, size);
            if (best[2 * i] != size - 1 || best[2 * i + 1] != holder) {
                Check.equal(
                        new int[] {size - 1, holder},
                        new int[] {best[2 * i], best[2 * i + 1]},
                        "large Allreduce MAXLOC pair " + i);
            }
        }
    }

    private static void bcastAndReduce(final Intracomm world, final int rank, final int size, final int root)
            throws MPIException {
        final long[] b = rank == root ? new long[] {root, 7, 8} : new long[3];
        world.Bcast(b, 0, 3, MPI.LONG, root);
        Check.equal(new long[] {root, 7, 8}, b, "Bcast from " + root);

        final int n = 50_001; // 200 KB: scattered, then passed round on larger communicators
        final int[] large = new int[n + 3];
        if (rank == root) {
            for (int i = 0; i < n; i++) {
                large[3 + i] = root * 7 + i;
            }
        }
        world.Bcast(large, 3, n, MPI.INT, root);
        for (int i = 0; i < n; i++) {
            if (large[3 + i] != root * 7 + i) {
                Check.equal(root * 7 + i, large[3 + i], "large Bcast from " + root + ", element " + i);
            }
        }
        Check.equal(0, large[2], "nothing written before the offset");

        final double[] mine = {rank, -rank, 1.0};
        final double[] sum = new double[3];
        world.Reduce(mine, 0, sum, 0, 3, MPI.DOUBLE, MPI.SUM, root);
        if (rank == root) {
            final int total = size * (size - 1) / 2;
            Check.equal(new double[] {total, -total, size}, sum, "Reduce SUM to " + root);
        }
        final int[] max = new int[1];
        world.Reduce(new int[] {rank * 3 % 5}, 0, max, 0, 1, MPI.INT, MPI.MAX, root);
        if (rank == root) {
            int expected = 0;
            for (int r = 0; r < size; r++) {
                expected = Math.max(expected, r * 3 % 5);
            }
            Check.equal(expected, max[0], "Reduce MAX to " + root);
        }
    }

    private static void gatherAndScatter(final Intracomm world, final int rank, final int size, final int root)
            throws MPIException {
        final int[] all = new int[2 * size];
        world.Gather(new int[] {rank, rank * rank}, 0, 2, MPI.INT, all, 0, 2, MPI.INT, root);
        if (rank == root) {
            for (int r = 0; r < size; r++) {
                Check.equal(new int[] {r, r * r}, new int[] {all[2 * r], all[2 * r + 1]}, "Gather block " + r);
            }
        }
        final int[] source = new int[2 * size];
        for (int i = 0; i < source.length; i++) {
            source[i] = 1000 * root + i;
        }
        final int[] piece = new int[2];
        world.Scatter(source, 0, 2, MPI.INT, piece, 0, 2, MPI.INT, root);
        Check.equal(new int[] {1000 * root + 2 * rank, 1000 * root + 2 * rank + 1}, piece, "Scatter from " + root);

        // Gatherv: rank r sends r + 1 items, placed from displacement r * (r + 1) / 2, in reverse order of ranks.
        final int[] counts = new int[size];
        final int[] displs = new int[size];
        int at = 0;
        for (int r = size - 1; r >= 0; r--) {
            counts[r] = r + 1;
            displs[r] = at;
            at += r + 1;
        }
        final short[] mine = new short[rank + 1];
        Arrays.fill(mine, (short) rank);
        final short[] gathered = new short[at];
        world.Gatherv(mine, 0, rank + 1, MPI.SHORT, gathered, 0, counts, displs, MPI.SHORT, root);
        if (rank == root) {
            for (int r = 0; r < size; r++) {
                for (int k = 0; k < r + 1; k++) {
                    Check.equal((short) r, gathered[displs[r] + k], "Gatherv item " + k + " of rank " + r);
                }
            }
        }
        final short[] back = new short[rank + 1];
        world.Scatterv(gathered, 0, counts, displs, MPI.SHORT, back, 0, rank + 1, MPI.SHORT, root);
        Check.equal(mine, back, "Scatterv from " + root);
    }

    private static void allCollectives(final Intracomm world, final int rank, final int size) throws MPIException {
        final double[] out = new double[1];
        world.Allreduce(new double[] {rank + 1}, 0, out, 0, 1, MPI.DOUBLE, MPI.PROD);
        double factorial = 1;
        for (int r = 1; r <= size; r++) {
            factorial *= r;
        }
        Check.equal(factorial, out[0], "Allreduce PROD");

        final boolean[] and = new boolean[2];
        world.Allreduce(new boolean[] {true, rank == 0}, 0, and, 0, 2, MPI.BOOLEAN, MPI.LAND);
        Check.equal(new boolean[] {true, size == 1}, and, "Allreduce LAND");

        final float[] gathered = new float[size];
        world.Allgather(new float[] {rank / 2f}, 0, 1, MPI.FLOAT, gathered, 0, 1, MPI.FLOAT);
        for (int r = 0; r < size; r++) {
            Check.equal(r / 2f, gathered[r], "Allgather item " + r);
        }

        final int[] send = new int[size];
        for (int r = 0; r < size; r++) {
            send[r] = 100 * rank + r;
        }
        final int[] recv = new int[size];
        world.Alltoall(send, 0, 1, MPI.INT, recv, 0, 1, MPI.INT);
        for (int r = 0; r < size; r++) {
            Check.equal(100 * r + rank, recv[r], "Alltoall item from " + r);
        }

        final int[] prefix = new int[1];
        world.Scan(new int[] {rank + 1}, 0, prefix, 0, 1, MPI.INT, MPI.SUM);
        Check.equal((rank + 1) * (rank + 2) / 2, prefix[0], "Scan SUM");

        // Reduce_scatter: rank r gets r + 1 items of the sum.
        final int[] counts = new int[size];
        int total = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = r + 1;
            total += r + 1;
        }
        final long[] contribution = new long[total];
        for (int i = 0; i < total; i++) {
            contribution[i] = i + rank;
        }
        final long[] part = new long[rank + 1];
        world.Reduce_scatter(contribution, 0, part, 0, counts, MPI.LONG, MPI.SUM);
        final int first = rank * (rank + 1) / 2;
        for (int k = 0; k <= rank; k++) {
            Check.equal((long) (first + k) * size + (long) size * (size - 1) / 2, part[k], "Reduce_scatter item " + k);
        }

        // MAXLOC over (value, rank) pairs: the largest value, on a tie the smallest rank.
        final double[] pair = {rank % 2 == 0 ? 5.0 : rank, rank};
        final double[] best = new double[2];
        world.Allreduce(pair, 0, best, 0, 1, MPI.DOUBLE2, MPI.MAXLOC);
        double bestValue = Double.NEGATIVE_INFINITY;
        double bestRank = -1;
        for (int r = 0; r < size; r++) {
            final double v = r % 2 == 0 ? 5.0 : r;
            if (v > bestValue) {
                bestValue = v;
                bestRank = r;
            }
        }
        Check.equal(new double[] {bestValue, bestRank}, best, "MAXLOC");
        final int[] low = new int[2];
        world.Allreduce(new int[] {10 - rank, rank}, 0, low, 0, 1, MPI.INT2, MPI.MINLOC);
        Check.equal(new int[] {10 - (size - 1), size - 1}, low, "MINLOC");
    }

    /** A collective the root refuses leaves nothing that a later one would take; an op wrong for the type fails everywhere. */
    private static void refusedByTheRoot(final Intracomm world, final int rank, final int size) throws MPIException {
        final int[] counts = new int[size];
        final int[] displs = new int[size];
        for (int r = 0; r < size; r++) {
            counts[r] = 1;
            displs[r] = r == size - 1 && rank == 0 ? 1000 : r; // only the root sees a displacement past the end
        }
        final int[] all = new int[size];
        try {
            world.Gatherv(new int[] {-rank - 1}, 0, 1, MPI.INT, all, 0, counts, displs, MPI.INT, 0);
            Check.that(rank != 0 || size == 1, "the root refuses a displacement past its buffer");
        } catch (MPIException e) {
            Check.that(rank == 0 && e.getMessage().contains("do not fit"), "the root's refusal: " + e.getMessage());
        }
        world.Gather(new int[] {rank + 10}, 0, 1, MPI.INT, all, 0, 1, MPI.INT, 0);
        if (rank == 0) {
            for (int r = 0; r < size; r++) {
                Check.equal(r + 10, all[r], "Gather after a refused Gatherv, item " + r);
            }
        }
        Check.fails(
                () -> world.Reduce(new double[1], 0, new double[1], 0, 1, MPI.DOUBLE, MPI.BAND, 0),
                "MPI.BAND is not defined on MPI.DOUBLE",
                "a bitwise operation on doubles, on every rank");
        final long[] big = new long[2];
        world.Allreduce(new long[] {(1L << 60) + rank, rank}, 0, big, 0, 1, MPI.LONG2, MPI.MAXLOC);
        Check.equal(new long[] {(1L << 60) + size - 1, size - 1}, big, "MAXLOC on longs past a double's precision");
    }

    /** A user operation that does not commute: the result must still follow rank order. */
    private static void userOps(final Intracomm world, final int rank, final int size) throws MPIException {
        // Composition of the affine maps x -> a*x + b, packed as (a, b): in rank order, not commutative.
        final Op compose = new Op(
                new User_function() {
                    @Override
                    public void Call(
                            final Object in,
                            final int inOffset,
                            final Object inout,
                            final int inoutOffset,
                            final int count,
                            final Datatype type) {
                        final long[] f = (long[]) in;
                        final long[] g = (long[]) inout;
                        for (int i = 0; i < count; i++) {
                            final int p = inOffset + 2 * i;
                            final int q = inoutOffset + 2 * i;
                            // (f then g): x -> g.a * (f.a * x + f.b) + g.b
                            final long a = g[q] * f[p];
                            final long b = g[q] * f[p + 1] + g[q + 1];
                            g[q] = a;
                            g[q + 1] = b;
                        }
                    }
                },
                false);
        final long[] mine = {2, rank};
        final long[] result = new long[2];
        world.Allreduce(mine, 0, result, 0, 1, MPI.LONG2, compose);
        long a = 1;
        long b = 0;
        for (int r = 0; r < size; r++) {
            a = 2 * a;
            b = 2 * b + r;
        }
        Check.equal(new long[] {a, b}, result, "a non-commutative user operation in rank order");
    }

    private static void communicators(final Intracomm world, final int rank, final int size) throws MPIException {
        final Intracomm dup = (Intracomm) world.clone();
        Check.equal(MPI.CONGRUENT, Intracomm.Compare(world, dup), "a dup is congruent");
        Check.equal(MPI.IDENT, Intracomm.Compare(world, world), "a communicator is identical to itself");
        // A message on the dup never matches a receive on world.
        if (size >= 2) {
            if (rank == 0) {
                dup.Send(new int[] {1}, 0, 1, MPI.INT, 1, 0);
                world.Send(new int[] {2}, 0, 1, MPI.INT, 1, 0);
            } else if (rank == 1) {
                final int[] v = new int[1];
                world.Recv(v, 0, 1, MPI.INT, 0, 0);
                Check.equal(2, v[0], "world's message, though the dup's came first");
                dup.Recv(v, 0, 1, MPI.INT, 0, 0);
                Check.equal(1, v[0], "the dup's message");
            }
        }
        // Split by parity, ranked in reverse.
        final Intracomm half = world.Split(rank % 2, -rank);
        final int halfSize = (size + 1 - rank % 2) / 2;
        Check.equal(halfSize, half.Size(), "the size of a split half");
        Check.equal(halfSize - 1 - rank / 2, half.Rank(), "the rank in a split half, by key");
        final int[] sum = new int[1];
        half.Allreduce(new int[] {rank}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        int expected = 0;
        for (int r = rank % 2; r < size; r += 2) {
            expected += r;
        }
        Check.equal(expected, sum[0], "Allreduce within a split half");
        // A dup made within each half, by that half's own first rank, never mixes with the half's messages, nor with
        // the other half's (whose first rank, in another JVM maybe, hands out contexts of its own).
        final Intracomm halfDup = (Intracomm) half.clone();
        if (half.Size() >= 2 && half.Rank() < 2) {
            if (half.Rank() == 0) {
                halfDup.Send(new int[] {111}, 0, 1, MPI.INT, 1, 0);
                half.Send(new int[] {222}, 0, 1, MPI.INT, 1, 0);
            } else {
                final int[] v = new int[1];
                half.Recv(v, 0, 1, MPI.INT, 0, 0);
                Check.equal(222, v[0], "the half's message, not its dup's");
                halfDup.Recv(v, 0, 1, MPI.INT, 0, 0);
                Check.equal(111, v[0], "the dup's message");
            }
        }
        Check.that(
                world.Split(rank == 0 ? 0 : MPI.UNDEFINED, 0) == null || rank == 0,
                "Split with MPI.UNDEFINED gives null");

        // Create from the group of even ranks.
        final Group evens = world.Group().Range_incl(new int[][] {{0, size - 1, 2}});
        final Intracomm even = world.Create(evens);
        Check.equal(rank % 2 == 0, even != null, "Create gives a communicator to members only");
        if (even != null) {
            Check.equal(rank / 2, even.Rank(), "the rank in the created communicator");
            even.Barrier();
        }
        final int[] translated = Group.Translate_ranks(world.Group(), new int[] {0, size - 1}, evens);
        Check.equal(new int[] {0, (size - 1) % 2 == 0 ? (size - 1) / 2 : MPI.UNDEFINED}, translated, "Translate_ranks");
        Check.equal(
                MPI.UNDEFINED,
                size > 1 ? world.Group().Excl(new int[] {rank}).Rank() : MPI.UNDEFINED,
                "a rank is not in a group that excludes it");
    }
}
