package org.troupe.mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Where each rank runs: {@code Placement print} prints {@code rank R of N on NAME pid PID} (MPI's processor name,
 * and its JVM's process); {@code Placement hang} prints the same, then every rank but 0 waits in a receive that no
 * send matches, for a test to kill a JVM under it.
 */
public final class Placement {
    private Placement() {}

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        MPI.COMM_WORLD.Barrier();
        System.out.println("rank " + rank + " of " + MPI.COMM_WORLD.Size() + " on " + MPI.Get_processor_name() + " pid "
                + ProcessHandle.current().pid());
        if (args[0].equals("hang")) {
            MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 0, 99);
        }
        MPI.Finalize();
    }
}
