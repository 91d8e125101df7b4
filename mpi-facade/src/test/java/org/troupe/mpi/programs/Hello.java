package org.troupe.mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/** Prints a line per rank, the line written in two parts. */
public final class Hello {
    private Hello() {}

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        System.out.print("hello from " + MPI.COMM_WORLD.Rank());
        System.out.flush();
        MPI.COMM_WORLD.Barrier();
        System.out.println(" of " + MPI.COMM_WORLD.Size() + (args.length > 0 ? " " + args[0] : ""));
        MPI.Finalize();
    }
}
