package org.troupe.mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/** Rank 1 fails at once; the others wait for a message from it, which never comes. */
public final class FailingRank {
    private FailingRank() {}

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        if (MPI.COMM_WORLD.Rank() == 1) {
            throw new IllegalStateException("boom in rank 1");
        }
        if (args.length > 0 && args[0].equals("compute") && MPI.COMM_WORLD.Rank() == 0) {
            while (true) { // never calls MPI again: the job must end without this rank
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 1, 0);
    }
}
