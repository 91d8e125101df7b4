package org.troupe.mpi.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Pairs of ranks (each with the one half the job away: 0 and 2, 1 and 3 of 4, so that with two JVMs of two ranks
 * every pair spans both, and both ranks of a JVM exchange at once) send each other large messages both ways at once, larger than what a link
 * queues for a peer that does not read: with Sendrecv; with Isend, then a blocking Recv, then a Wait on the send;
 * and with Isend and Irecv tested in a loop. Each rank checks every element it got and prints "exchanged N doubles"
 * when all three came whole.
 */
public final class LargeExchange {
    private LargeExchange() {}

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final int size = world.Size();
        final int peer = (rank + size / 2) % size;
        final int n = args.length > 0 ? Integer.parseInt(args[0]) : 6 << 20; // 48 MiB
        if (size % 2 == 0) {
            final double[] out = new double[n];
            final double[] in = new double[n];
            for (int i = 0; i < n; i++) {
                out[i] = rank * 1e9 + i;
            }
            world.Sendrecv(out, 0, n, MPI.DOUBLE, peer, 1, in, 0, n, MPI.DOUBLE, peer, 1);
            check(in, peer, "Sendrecv");

            final Request send = world.Isend(out, 0, n, MPI.DOUBLE, peer, 2);
            world.Recv(in, 0, n, MPI.DOUBLE, peer, 2);
            send.Wait();
            check(in, peer, "Isend, Recv, Wait");

            final Request[] both = {
                world.Isend(out, 0, n, MPI.DOUBLE, peer, 3), world.Irecv(in, 0, n, MPI.DOUBLE, peer, 3)
            };
            while (Request.Testall(both) == null) {
                Thread.onSpinWait();
            }
            check(in, peer, "Isend, Irecv, Testall");
            System.out.println("rank " + rank + " exchanged " + n + " doubles");
        }
        MPI.Finalize();
    }

    private static void check(final double[] in, final int peer, final String how) {
        for (int i = 0; i < in.length; i++) {
            if (in[i] != peer * 1e9 + i) {
                throw new IllegalStateException(how + ": element " + i + " is " + in[i] + ", not " + (peer * 1e9 + i));
            }
            in[i] = -1;
        }
    }
}
