package org.troupe.mpi.programs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import mpi.MPI;
import mpi.MPIException;

/** What a job of JVMs must survive or pass on: a rank gone before it linked, an Abort, standard input, options. */
public final class JvmCases {
    private JvmCases() {}

    public static void main(final String[] args) throws MPIException, IOException, InterruptedException {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        switch (args[0]) {
            case "exit" -> {
                if (rank == 1) {
                    System.exit(3);
                }
                MPI.COMM_WORLD.Allreduce(new int[] {1}, 0, new int[1], 0, 1, MPI.INT, MPI.SUM);
            }
            case "abort" -> {
                try {
                    if (rank == 1) {
                        MPI.COMM_WORLD.Abort(3);
                    }
                    MPI.COMM_WORLD.Barrier();
                } catch (MPIException e) {
                    System.out.println("rank " + rank + ": " + e.getMessage());
                }
                if (rank == 1) {
                    Thread.sleep(60_000); // the others must not wait for this
                }
            }
            case "stdin" -> {
                final char[] line = new char[64];
                int n = 0;
                if (rank == 0) {
                    final String read =
                            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                    read.getChars(0, read.length(), line, 0);
                    n = read.length();
                }
                final int[] length = {n};
                MPI.COMM_WORLD.Bcast(length, 0, 1, MPI.INT, 0);
                MPI.COMM_WORLD.Bcast(line, 0, length[0], MPI.CHAR, 0);
                System.out.println("rank " + rank + " read " + new String(line, 0, length[0]));
            }
            case "options" -> System.out.println("rank " + rank + " my.param=" + System.getProperty("my.param"));
            case "pause" -> { // rank 1's JVM is stopped for a while (as a long collection or a debugger would)
                MPI.COMM_WORLD.Barrier();
                System.out.println(
                        "rank " + rank + " pid " + ProcessHandle.current().pid());
                final int[] v = {42};
                if (rank == 1) {
                    Thread.sleep(12_000);
                    MPI.COMM_WORLD.Send(v, 0, 1, MPI.INT, 0, 0);
                } else if (rank == 0) {
                    MPI.COMM_WORLD.Recv(v, 0, 1, MPI.INT, 1, 0);
                    System.out.println("rank 0 got " + v[0]);
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        MPI.Finalize();
    }
}
