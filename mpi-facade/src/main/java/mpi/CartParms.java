package mpi;

/** A Cartesian communicator's shape, and this rank's place in it. */
public class CartParms {
    public int[] dims;
    public boolean[] periods;
    public int[] coords;
}
