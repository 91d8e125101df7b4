package mpi;

/** A graph communicator's edges: node i's neighbours are {@code edges[index[i-1]]} to {@code edges[index[i]-1]}. */
public class GraphParms {
    public int[] index;
    public int[] edges;
}
