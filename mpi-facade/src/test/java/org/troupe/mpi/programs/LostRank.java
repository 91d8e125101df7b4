package org.troupe.mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/** Rank 1's JVM dies (halt, as a crash or a kill would end it) while the others wait for it. */
public final class LostRank {
    private LostRank() {}

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.Barrier();
        if (MPI.COMM_WORLD.Rank() == 1) {
            Runtime.getRuntime().halt(3);
        }
        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 1, 0);
    }
}
