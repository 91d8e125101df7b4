package org.troupe.mpi.programs;

import mpi.MPI;

/**
 * A program that hangs, as programs do by mistake, for mpjrun's report of what the ranks are blocked in:
 * {@code cycle}, each rank receives from the next first (a ring of Recv); {@code collectives}, rank 0 calls Bcast
 * (from the last rank) while the others call Barrier; {@code ended}, rank 0 waits for a message from rank 1, which finalizes and returns.
 * And two that only look like it for a while: {@code listener}, each rank's second thread waits 5 s to receive from
 * the next while its main thread computes, then sends; {@code last}, rank 0 waits 5 s for rank 1's message, then
 * rank 1 ends.
 */
public final class Hang {
    private Hang() {}

    public static void main(final String[] args) throws InterruptedException {
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
            case "listener" -> {
                final Thread listener =
                        new Thread(() -> MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, (rank + 1) % size, 1));
                listener.start();
                Thread.sleep(5_000); // computing
                MPI.COMM_WORLD.Send(one, 0, 1, MPI.INT, (rank - 1 + size) % size, 1);
                listener.join();
            }
            case "last" -> {
                if (rank == 0) {
                    MPI.COMM_WORLD.Recv(one, 0, 1, MPI.INT, 1, 2);
                } else if (rank == 1) {
                    Thread.sleep(5_000);
                    MPI.COMM_WORLD.Send(one, 0, 1, MPI.INT, 0, 2);
                }
            }
            default -> throw new IllegalArgumentException("no case " + args[0]);
        }
        MPI.Finalize();
    }
}
