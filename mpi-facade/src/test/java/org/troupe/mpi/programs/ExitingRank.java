package org.troupe.mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 1 ends itself as a process would: {@code exit N} calls System.exit(N) while the others wait for a message from
 * it, {@code runtime-exit N} Runtime.exit, {@code thread-halt N} Runtime.halt in a thread it started; with
 * {@code finalize-then-exit N} every rank finalizes, then rank 1 calls System.exit(N) and the others take a while to
 * end ({@code finalize-then-throw 0}: rank 1 throws instead); with {@code return 0} rank 1 returns from main without MPI.Finalize while the others wait for it.
 */
public final class ExitingRank {
    private ExitingRank() {}

    public static void main(final String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final int status = Integer.parseInt(args[1]);
        if (args[0].startsWith("finalize-then-")) {
            MPI.COMM_WORLD.Barrier();
            MPI.Finalize();
            if (rank == 1 && args[0].equals("finalize-then-throw")) {
                throw new IllegalStateException("failed after Finalize");
            }
            if (rank == 1) {
                System.exit(status);
            }
            Thread.sleep(500); // the JVM must not end with rank 1
            System.out.println("rank " + rank + " done");
            return;
        }
        if (args[0].equals("return") && rank == 1) {
            return; // without MPI.Finalize, while the others wait for it
        }
        if (rank == 1) {
            try {
                switch (args[0]) {
                    case "exit" -> System.exit(status);
                    case "runtime-exit" -> Runtime.getRuntime().exit(status);
                    case "thread-halt" -> {
                        final Thread t = new Thread(() -> Runtime.getRuntime().halt(status));
                        t.start();
                        t.join();
                    }
                    default -> throw new IllegalArgumentException(args[0]);
                }
            } catch (Exception e) { // as programs do: an exit must go through it
                System.out.println("rank 1 caught " + e);
            }
        }
        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 1, 0);
        MPI.Finalize();
    }
}
