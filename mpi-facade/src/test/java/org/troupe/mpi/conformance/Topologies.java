package org.troupe.mpi.conformance;

import mpi.CartParms;
import mpi.Cartcomm;
import mpi.Graphcomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

/** Cartesian and graph communicators, for any number of ranks. */
public final class Topologies {
    private Topologies() {}

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final int size = world.Size();
        dimsCreate();
        Check.equal(MPI.UNDEFINED, world.Topo_test(), "COMM_WORLD has no topology");

        final int[] dims = {0, 0};
        Cartcomm.Dims_create(size, dims);
        final Cartcomm cart = world.Create_cart(dims, new boolean[] {true, false}, false);
        Check.equal(MPI.CART, cart.Topo_test(), "Topo_test of a grid");
        final Cartcomm copy = (Cartcomm) cart.clone();
        Check.equal(dims, copy.Get().dims, "a grid's dup is a grid");
        final CartParms p = cart.Get();
        Check.equal(dims, p.dims, "Get's dims");
        Check.equal(new int[] {rank / dims[1], rank % dims[1]}, p.coords, "row-major coordinates");
        Check.equal(rank, cart.Rank(p.coords), "Rank of one's own coordinates");
        final ShiftParms down = cart.Shift(0, 1);
        Check.equal(cart.Rank(new int[] {p.coords[0] - 1, p.coords[1]}), down.rank_source, "a periodic shift wraps");
        Check.equal(cart.Rank(new int[] {p.coords[0] + 1, p.coords[1]}), down.rank_dest, "a periodic shift wraps");
        final ShiftParms right = cart.Shift(1, 1);
        Check.equal(p.coords[1] == 0 ? MPI.PROC_NULL : rank - 1, right.rank_source, "an open edge on the left");
        Check.equal(
                p.coords[1] == dims[1] - 1 ? MPI.PROC_NULL : rank + 1, right.rank_dest, "an open edge on the right");
        Check.fails(
                () -> cart.Rank(new int[] {0, dims[1]}), "is outside dimension 1", "a coordinate past an open edge");

        // A value passed around each row's ring of the periodic dimension.
        final int[] got = {-1};
        cart.Sendrecv(new int[] {rank}, 0, 1, MPI.INT, down.rank_dest, 4, got, 0, 1, MPI.INT, down.rank_source, 4);
        Check.equal(down.rank_source, got[0], "Sendrecv along a shift");

        // Columns: keep dimension 0.
        final Cartcomm column = cart.Sub(new boolean[] {true, false});
        Check.equal(dims[0], column.Size(), "the size of a column");
        Check.equal(p.coords[0], column.Rank(), "the rank in a column");
        final int[] sum = new int[1];
        column.Allreduce(new int[] {rank}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        int expected = 0;
        for (int r = 0; r < dims[0]; r++) {
            expected += r * dims[1] + p.coords[1];
        }
        Check.equal(expected, sum[0], "Allreduce within a column");

        // A ring as a graph.
        final int[] index = new int[size];
        final int[] edges = new int[2 * size];
        for (int i = 0; i < size; i++) {
            index[i] = 2 * (i + 1);
            edges[2 * i] = (i - 1 + size) % size;
            edges[2 * i + 1] = (i + 1) % size;
        }
        final Graphcomm ring = world.Create_graph(index, edges, false);
        Check.equal(MPI.GRAPH, ring.Topo_test(), "Topo_test of a graph");
        Check.equal(new int[] {(rank - 1 + size) % size, (rank + 1) % size}, ring.Neighbours(rank), "Neighbours");
        Check.equal(index, ring.Get().index, "Get's index");
        world.Barrier();
        MPI.Finalize();
    }

    private static void dimsCreate() throws MPIException {
        final int[] a = {0, 0};
        Cartcomm.Dims_create(6, a);
        Check.equal(new int[] {3, 2}, a, "Dims_create(6, {0, 0})");
        final int[] b = {0, 3, 0};
        Cartcomm.Dims_create(12, b);
        Check.equal(new int[] {2, 3, 2}, b, "Dims_create keeps a fixed dimension");
        final int[] c = {0, 0, 0};
        Cartcomm.Dims_create(8, c);
        Check.equal(new int[] {2, 2, 2}, c, "Dims_create(8, {0, 0, 0})");
        final int[] d = {0, 0};
        Cartcomm.Dims_create(7, d);
        Check.equal(new int[] {7, 1}, d, "Dims_create of a prime");
        Check.fails(() -> Cartcomm.Dims_create(5, new int[] {2, 0}), "cannot fill", "5 nodes in dimensions of 2");
        for (final int[] t : new int[][] {{72, 9, 8}, {180, 15, 12}, {240, 16, 15}, {288, 18, 16}, {336, 21, 16}}) {
            final int[] e = {0, 0};
            Cartcomm.Dims_create(t[0], e);
            Check.equal(new int[] {t[1], t[2]}, e, "the most even split of " + t[0]);
        }
    }
}
