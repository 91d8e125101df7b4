package mpi;

import java.util.Arrays;

/**
 * A communicator whose ranks form a Cartesian grid, numbered in row-major order (the last dimension varies
 * fastest). Made by {@link Intracomm#Create_cart}; ranks keep their order (no reordering).
 */
public class Cartcomm extends Intracomm {
    private final int[] dims;
    private final boolean[] periods;

    Cartcomm(final int context, final int[] members, final int rank, final int[] dims, final boolean[] periods) {
        super(context, members, rank);
        this.dims = dims;
        this.periods = periods;
    }

    /**
     * A grid of the first {@code dims[0] * dims[1] * ...} ranks of {@code comm} (see {@link Intracomm#Create_cart}),
     * or null for its other ranks. Collective.
     */
    static Cartcomm create(final Intracomm comm, final int[] dims, final boolean[] periods) throws MPIException {
        if (dims == null || periods == null || dims.length != periods.length || dims.length == 0) {
            throw new MPIException("Create_cart: give one size and one periodic flag per dimension");
        }
        long nodes = 1;
        for (final int d : dims) {
            if (d < 1) {
                throw new MPIException("Create_cart: dimension size " + d + " is not positive");
            }
            nodes *= d;
        }
        if (nodes > comm.members.length) {
            throw new MPIException("Create_cart: a grid of " + nodes + " ranks does not fit in a communicator of "
                    + comm.members.length);
        }
        final int ctx = comm.agreeOnContexts(1);
        if (comm.rank >= nodes) {
            return null;
        }
        return new Cartcomm(ctx, Arrays.copyOf(comm.members, (int) nodes), comm.rank, dims.clone(), periods.clone());
    }

    /** The rank {@code rank} would have in a grid of {@code dims}, or {@link MPI#UNDEFINED}. */
    private static int cartRank(final int rank, final int[] dims) {
        long nodes = 1;
        for (final int d : dims) {
            nodes *= d;
        }
        return rank < nodes ? rank : MPI.UNDEFINED;
    }

    /** A copy with the same grid and a context of its own (collective). */
    @Override
    public Object clone() {
        final Intracomm dup = (Intracomm) super.clone();
        return new Cartcomm(dup.context, dup.members, dup.rank, dims.clone(), periods.clone());
    }

    public CartParms Get() throws MPIException {
        final CartParms p = new CartParms();
        p.dims = dims.clone();
        p.periods = periods.clone();
        p.coords = Coords(Rank());
        return p;
    }

    /** The rank at {@code coords}; a coordinate outside a periodic dimension wraps around. */
    public int Rank(final int[] coords) throws MPIException {
        if (coords == null || coords.length != dims.length) {
            throw new MPIException("Rank: " + dims.length + " coordinates are needed, not "
                    + (coords == null ? "null" : coords.length));
        }
        int r = 0;
        for (int d = 0; d < dims.length; d++) {
            int c = coords[d];
            if (periods[d]) {
                c = Math.floorMod(c, dims[d]);
            } else if (c < 0 || c >= dims[d]) {
                throw new MPIException("Rank: coordinate " + c + " is outside dimension " + d + " (0 to "
                        + (dims[d] - 1) + ", not periodic)");
            }
            r = r * dims[d] + c;
        }
        return r;
    }

    public int[] Coords(final int rank) throws MPIException {
        if (rank < 0 || rank >= Size()) {
            throw new MPIException("Coords: rank " + rank + " is not in this grid of " + Size());
        }
        final int[] coords = new int[dims.length];
        int r = rank;
        for (int d = dims.length - 1; d >= 0; d--) {
            coords[d] = r % dims[d];
            r /= dims[d];
        }
        return coords;
    }

    /** The neighbours {@code disp} steps down and up {@code direction}. */
    public ShiftParms Shift(final int direction, final int disp) throws MPIException {
        if (direction < 0 || direction >= dims.length) {
            throw new MPIException("Shift: direction " + direction + " is not a dimension of this grid (0 to "
                    + (dims.length - 1) + ")");
        }
        final int[] here = Coords(Rank());
        final ShiftParms p = new ShiftParms();
        p.rank_source = neighbour(here, direction, -disp);
        p.rank_dest = neighbour(here, direction, disp);
        return p;
    }

    private int neighbour(final int[] here, final int direction, final int disp) throws MPIException {
        final int[] c = here.clone();
        c[direction] += disp;
        if (!periods[direction] && (c[direction] < 0 || c[direction] >= dims[direction])) {
            return MPI.PROC_NULL;
        }
        return Rank(c);
    }

    /** The sub-grids that keep the dimensions {@code remain_dims} says: one communicator per sub-grid. Collective. */
    public Cartcomm Sub(final boolean[] remain_dims) throws MPIException {
        if (remain_dims == null || remain_dims.length != dims.length) {
            throw new MPIException("Sub: one flag per dimension (" + dims.length + ") is needed");
        }
        final int[] here = Coords(Rank());
        int color = 0;
        int key = 0;
        int kept = 0;
        for (int d = 0; d < dims.length; d++) {
            if (remain_dims[d]) {
                key = key * dims[d] + here[d];
                kept++;
            } else {
                color = color * dims[d] + here[d];
            }
        }
        final Intracomm split = Split(color, key);
        final int[] subDims = new int[kept];
        final boolean[] subPeriods = new boolean[kept];
        for (int d = 0, k = 0; d < dims.length; d++) {
            if (remain_dims[d]) {
                subDims[k] = dims[d];
                subPeriods[k++] = periods[d];
            }
        }
        return new Cartcomm(split.context, split.members, split.rank, subDims, subPeriods);
    }

    /** The rank this rank would have in a grid of {@code dims} ({@link MPI#UNDEFINED} if it would be left out). */
    public int Map(final int[] dims, final boolean[] periods) throws MPIException {
        return cartRank(Rank(), dims);
    }

    @Override
    public int Topo_test() throws MPIException {
        Rank();
        return MPI.CART;
    }

    /**
     * Tries the factors of {@code n} for position {@code at} of {@code into}, none larger than {@code max}, keeping in
     * {@code best[0]} the split whose largest factor is smallest (then whose smallest is largest).
     */
    private static void split(
            final int n, final int parts, final int max, final int[] into, final int at, final int[][] best) {
        if (at == parts - 1) {
            if (n > max) {
                return;
            }
            into[at] = n;
            final int[] b = best[0];
            if (b == null || into[0] < b[0] || (into[0] == b[0] && n > b[parts - 1])) {
                best[0] = into.clone();
            }
            return;
        }
        for (int f = Math.min(max, n); f >= 1; f--) {
            if (n % f != 0) {
                continue;
            }
            if (Math.pow(f, parts - at) < n) {
                break; // the largest factor is at least the root of what is left: smaller ones cannot do
            }
            into[at] = f;
            split(n / f, parts, f, into, at + 1, best);
        }
    }

    /**
     * Fills the zero entries of {@code dims} so that the product of all is {@code nnodes}, as evenly as can be and in
     * non-increasing order; the other entries stay as they are.
     */
    public static void Dims_create(final int nnodes, final int[] dims) throws MPIException {
        int fixed = 1;
        int free = 0;
        for (final int d : dims) {
            if (d < 0) {
                throw new MPIException("Dims_create: dimension " + d + " is negative");
            }
            if (d > 0) {
                fixed *= d;
            } else {
                free++;
            }
        }
        if (nnodes < 1 || nnodes % fixed != 0) {
            throw new MPIException("Dims_create: " + nnodes + " nodes cannot fill the dimensions given, whose"
                    + " product is " + fixed);
        }
        if (free == 0) {
            if (fixed != nnodes) {
                throw new MPIException("Dims_create: the dimensions given make " + fixed + " nodes, not " + nnodes);
            }
            return;
        }
        // The most even split: of all ways to write n as a product of `free` factors in non-increasing order, the
        // one whose largest factor is smallest (then whose smallest is largest).
        final int[][] best = new int[1][];
        split(nnodes / fixed, free, Integer.MAX_VALUE, new int[free], 0, best);
        final int[] sizes = best[0];
        Arrays.sort(sizes);
        for (int i = 0, k = free - 1; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = sizes[k--];
            }
        }
    }
}
