package org.troupe.mpi.programs;

import java.util.concurrent.atomic.AtomicInteger;
import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 0 sends an object of a JDK class MPI.OBJECT does not carry, catches the failure and goes on; rank 1 waits
 * for the message, which never comes: the job must fail rather than hang.
 */
public final class UnsendableObject {
    private UnsendableObject() {}

    public static void main(final String[] args) {
        MPI.Init(args);
        if (MPI.COMM_WORLD.Rank() == 0) {
            try {
                MPI.COMM_WORLD.Send(new Object[] {new AtomicInteger(3)}, 0, 1, MPI.OBJECT, 1, 0);
            } catch (MPIException e) {
                System.err.println("rank 0 caught: " + e.getMessage());
            }
        } else {
            MPI.COMM_WORLD.Recv(new Object[1], 0, 1, MPI.OBJECT, 0, 0);
        }
        MPI.Finalize();
    }
}
