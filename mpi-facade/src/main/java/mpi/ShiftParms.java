package mpi;

/** The ranks a shift along one dimension receives from and sends to ({@link MPI#PROC_NULL} past an open edge). */
public class ShiftParms {
    public int rank_source;
    public int rank_dest;
}
