package mpi;

import java.util.Arrays;

/** A communicator whose ranks are the nodes of a graph. Made by {@link Intracomm#Create_graph}; no reordering. */
public class Graphcomm extends Intracomm {
    private final int[] index;
    private final int[] edges;

    Graphcomm(final int context, final int[] members, final int rank, final int[] index, final int[] edges) {
        super(context, members, rank);
        this.index = index;
        this.edges = edges;
    }

    /**
     * A graph of the first {@code index.length} ranks of {@code comm} (see {@link Intracomm#Create_graph}), or null
     * for its other ranks. Collective.
     */
    static Graphcomm create(final Intracomm comm, final int[] index, final int[] edges) throws MPIException {
        if (index == null || edges == null || index.length == 0 || index.length > comm.members.length) {
            throw new MPIException("Create_graph: index must have one entry per node, at most " + comm.members.length);
        }
        for (int i = 0; i < index.length; i++) {
            if (index[i] < (i == 0 ? 0 : index[i - 1]) || index[i] > edges.length) {
                throw new MPIException("Create_graph: index[" + i + "] = " + index[i] + " is not a running total of"
                        + " the " + edges.length + " edges");
            }
        }
        for (final int e : edges) {
            if (e < 0 || e >= index.length) {
                throw new MPIException(
                        "Create_graph: edge to " + e + ", not a node of the graph (0 to " + (index.length - 1) + ")");
            }
        }
        final int ctx = comm.agreeOnContexts(1);
        if (comm.rank >= index.length) {
            return null;
        }
        return new Graphcomm(ctx, Arrays.copyOf(comm.members, index.length), comm.rank, index.clone(), edges.clone());
    }

    /** A copy with the same graph and a context of its own (collective). */
    @Override
    public Object clone() {
        final Intracomm dup = (Intracomm) super.clone();
        return new Graphcomm(dup.context, dup.members, dup.rank, index.clone(), edges.clone());
    }

    public GraphParms Get() throws MPIException {
        Rank();
        final GraphParms p = new GraphParms();
        p.index = index.clone();
        p.edges = edges.clone();
        return p;
    }

    /** The neighbours of node {@code rank}, in the order of the edges. */
    public int[] Neighbours(final int rank) throws MPIException {
        if (rank < 0 || rank >= Size()) {
            throw new MPIException("Neighbours: rank " + rank + " is not a node of this graph of " + Size());
        }
        return Arrays.copyOfRange(edges, rank == 0 ? 0 : index[rank - 1], index[rank]);
    }

    /** The rank this rank would have in a graph of {@code index.length} nodes ({@link MPI#UNDEFINED} if left out). */
    public int Map(final int[] index, final int[] edges) throws MPIException {
        final int rank = Rank();
        return rank < index.length ? rank : MPI.UNDEFINED;
    }

    @Override
    public int Topo_test() throws MPIException {
        Rank();
        return MPI.GRAPH;
    }
}
