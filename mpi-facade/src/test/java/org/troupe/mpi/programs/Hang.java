package org.troupe.mpi.programs;

import mpi.MPI;

/**
 * A program that hangs, as programs do by mistake, for mpjrun's report of what the ranks are blocked in:
 * {@code cycle}, each rank receives from the next first (a ring of Recv); {@code collectives}, rank 0 calls Bcast
 * (from the last rank) while the others call Barrier; {@code ended}, rank 0 waits for a message from rank 1, which finalizes and returns.
 */
public final class Hang {
    private Hang() {}

    public static void main(final String[] args) {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        final int[] one = new int[1];
        switch (args[0]) {
            case "cycle" -> MPI.COMM_WORLD.Recv(one, 0, 1, MPI.INT, (rank + 1) % size, 7);
            case "collectives" -> {
                if (rank == 0) {
                    MPI.COMM_WORLD.Bcast(one, 0, 1, MPI.INT, size - 1);
                } else {
                    MPI.COMM_WORLD.Barrier();
                }
            }
            case "ended" -> {
                if (rank == 0) {
                    MPI.COMM_WORLD.Recv(one, 0, 1, MPI.INT, 1, 3);
                }
            }
            default -> throw new IllegalArgumentException("no case " + args[0]);
        }
        MPI.Finalize();
    }
}
