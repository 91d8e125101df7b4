package mpi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.troupe.mpi.fabric.FabricException;

/**
 * A communicator within one group, and the making of new communicators from it: split, subgroup, duplicate,
 * intercommunicator, Cartesian grid and graph. Its collectives come from {@code DataMovement} (broadcast, gather,
 * scatter, all-to-all) and {@code Reductions} (reductions, scan, barrier); each checks its arguments, chooses an
 * algorithm by the size of its data, and runs it (the algorithms are in {@code org.troupe.mpi.fabric.coll}, one per
 * class).
 */
public class Intracomm extends Reductions {
    Intracomm(final int context, final int[] members, final int rank) {
        super(context, members, rank);
    }

    /** {@link MPI#COMM_NULL}: a communicator of no rank, freed, so that every call on it says so. */
    static Intracomm freed() {
        final Intracomm c = new Intracomm(-1, new int[0], MPI.UNDEFINED);
        c.freed = true;
        return c;
    }

    /** A copy with the same members and a context of its own (collective: every member calls it). */
    @Override
    public Object clone() {
        try {
            return new Intracomm(agreeOnContexts(1), members.clone(), rank);
        } catch (MPIException e) {
            throw new IllegalStateException("clone (the communicator's dup) failed: " + e.getMessage(), e);
        }
    }

    /**
     * Splits it by {@code color}: the members of one color form a communicator, ranked by {@code key} (then by
     * rank here). A rank with color {@link MPI#UNDEFINED} gets null. Collective.
     */
    public Intracomm Split(final int color, final int key) throws MPIException {
        if (color < 0 && color != MPI.UNDEFINED) {
            throw new MPIException("Split: color " + color + " is negative (and not MPI.UNDEFINED)");
        }
        final int size = members.length;
        final int[] mine = {color, key};
        final int[] all = new int[2 * size];
        Allgather(mine, 0, 2, MPI.INT, all, 0, 2, MPI.INT);
        final List<Integer> colors = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (all[2 * r] != MPI.UNDEFINED && !colors.contains(all[2 * r])) {
                colors.add(all[2 * r]);
            }
        }
        colors.sort(null);
        final int base = agreeOnContexts(Math.max(1, colors.size()));
        if (color == MPI.UNDEFINED) {
            return null;
        }
        final List<Integer> same = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (all[2 * r] == color) {
                same.add(r);
            }
        }
        same.sort(Comparator.<Integer>comparingInt(r -> all[2 * r + 1]).thenComparingInt(r -> r));
        final int[] newMembers = new int[same.size()];
        int newRank = -1;
        for (int i = 0; i < newMembers.length; i++) {
            newMembers[i] = members[same.get(i)];
            if (same.get(i) == rank) {
                newRank = i;
            }
        }
        return new Intracomm(base + 2 * colors.indexOf(color), newMembers, newRank);
    }

    /** A communicator of the members of {@code group} (a subset of this one's); null for the others. Collective. */
    public Intracomm Create(final Group group) throws MPIException {
        for (final int w : group.members) {
            if (indexOfWorld(w) < 0) {
                throw new MPIException("Create: the group has a rank that is not in this communicator");
            }
        }
        final int ctx = agreeOnContexts(1);
        final int me = members[rank];
        for (int i = 0; i < group.members.length; i++) {
            if (group.members[i] == me) {
                return new Intracomm(ctx, group.members.clone(), i);
            }
        }
        return null;
    }

    int indexOfWorld(final int world) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == world) {
                return i;
            }
        }
        return -1;
    }

    /** Rank 0 takes {@code n} fresh context pairs from the job and tells the others the first. */
    int agreeOnContexts(final int n) throws MPIException {
        final int[] base = new int[1];
        if (rank == 0) {
            try {
                base[0] = MPI.state().fabric.newContexts(n);
            } catch (FabricException e) {
                base[0] = -1; // the others learn it below, and fail too
            }
        }
        Bcast(base, 0, 1, MPI.INT, 0);
        if (base[0] < 0) {
            throw new MPIException("no communicator can be made: this job's rank 0 of the communicator has made all"
                    + " it may make (freed ones are not reused)");
        }
        return base[0];
    }

    /**
     * A Cartesian grid of the first {@code dims[0] * dims[1] * ...} ranks, in row-major order; the other ranks get
     * null. Ranks are not reordered. Collective.
     */
    public Cartcomm Create_cart(final int[] dims, final boolean[] periods, final boolean reorder) throws MPIException {
        return Cartcomm.create(this, dims, periods);
    }

    /**
     * A graph of {@code index.length} ranks (the first ones): node i's neighbours are {@code edges[index[i-1]]} to
     * {@code edges[index[i]-1]}. The other ranks get null. Collective.
     */
    public Graphcomm Create_graph(final int[] index, final int[] edges, final boolean reorder) throws MPIException {
        return Graphcomm.create(this, index, edges);
    }
}
