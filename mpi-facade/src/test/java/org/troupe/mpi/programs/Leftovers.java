package org.troupe.mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * What a job must not lose: output without a final newline, a thread a rank started that ends after its main, and an
 * Abort the rank caught.
 */
public final class Leftovers {
    private Leftovers() {}

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        switch (args[0]) {
            case "print" -> System.out.print("done " + rank);
            case "thread" ->
                new Thread(() -> {
                            try {
                                Thread.sleep(100);
                                final int[] sum = new int[1];
                                MPI.COMM_WORLD.Allreduce(new int[] {rank}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
                                System.out.println("late " + rank + " " + sum[0]);
                                MPI.Finalize(); // the rank's last MPI call, from the thread that made it
                            } catch (InterruptedException | MPIException e) {
                                throw new IllegalStateException(e);
                            }
                        })
                        .start();
            case "abort" -> {
                try {
                    if (rank == 0) {
                        MPI.COMM_WORLD.Abort(3);
                    }
                    MPI.COMM_WORLD.Barrier(); // the others wait in MPI, as for a message from rank 0
                } catch (MPIException e) {
                    System.out.println("caught " + e.getMessage());
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        if (args[0].equals("print")) {
            MPI.Finalize();
        }
    }
}
