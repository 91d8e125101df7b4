package org.troupe.mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/** Each rank has its own statics: the program's and MPI's. */
public final class PerRankStatics {
    private static int starts;

    private PerRankStatics() {}

    public static void main(final String[] args) throws MPIException {
        starts++;
        try {
            MPI.COMM_WORLD.Rank();
            throw new IllegalStateException("a call before MPI.Init did not fail");
        } catch (MPIException e) {
            if (!e.getMessage().contains("MPI.Init has not been called")) {
                throw e;
            }
        }
        MPI.Init(args);
        final int size = MPI.COMM_WORLD.Size();
        final int[] all = new int[size];
        MPI.COMM_WORLD.Allgather(new int[] {starts}, 0, 1, MPI.INT, all, 0, 1, MPI.INT);
        for (final int s : all) {
            if (s != 1) {
                throw new IllegalStateException("a rank saw the program started " + s + " times: statics are shared");
            }
        }
        final int[] ranks = new int[size];
        MPI.COMM_WORLD.Allgather(new int[] {MPI.COMM_WORLD.Rank()}, 0, 1, MPI.INT, ranks, 0, 1, MPI.INT);
        for (int r = 0; r < size; r++) {
            if (ranks[r] != r) {
                throw new IllegalStateException("rank " + r + " says it is rank " + ranks[r]);
            }
        }
        MPI.Finalize();
        try {
            MPI.Init(args);
            throw new IllegalStateException("a second MPI.Init did not fail");
        } catch (MPIException e) {
            if (!e.getMessage().contains("twice")) {
                throw e;
            }
        }
    }
}
