package org.troupe.mpi.conformance;

import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/** An intercommunicator between the even and the odd ranks (two ranks or more), and its merge. */
public final class Intercomms {
    private Intercomms() {}

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final int size = world.Size();
        final int evens = (size + 1) / 2;
        final int odds = size / 2;
        final boolean even = rank % 2 == 0;
        final Intracomm half = world.Split(rank % 2, rank);
        final Intercomm inter = world.Create_intercomm(half, 0, even ? 1 : 0, 99);
        Check.equal(even ? evens : odds, inter.Size(), "Size is the own group's");
        Check.equal(even ? odds : evens, inter.Remote_size(), "Remote_size");
        Check.equal(rank / 2, inter.Rank(), "Rank is the own group's");
        final Group remote = inter.Remote_group();
        Check.equal(
                new int[] {even ? 1 : 0},
                Group.Translate_ranks(remote, new int[] {0}, world.Group()),
                "the remote group's leader in COMM_WORLD");

        // Each rank sends its world rank to the other group's rank with its own local rank, if there is one.
        final int local = inter.Rank();
        final int remoteSize = inter.Remote_size();
        final var sent = local < remoteSize ? inter.Isend(new int[] {rank}, 0, 1, MPI.INT, local, 7) : null;
        if (local < remoteSize) {
            final int[] got = new int[1];
            final Status s = inter.Recv(got, 0, 1, MPI.INT, MPI.ANY_SOURCE, 7);
            Check.equal(local, s.source, "the source is a rank of the remote group");
            Check.equal(2 * local + (even ? 1 : 0), got[0], "the world rank of the remote sender");
        }
        if (sent != null) {
            sent.Wait();
        }

        // A dup's messages never match the original's.
        final Intercomm dup = (Intercomm) inter.clone();
        if (local < remoteSize) {
            final var a = dup.Isend(new int[] {1}, 0, 1, MPI.INT, local, 8);
            final var b = inter.Isend(new int[] {2}, 0, 1, MPI.INT, local, 8);
            final int[] got = new int[1];
            inter.Recv(got, 0, 1, MPI.INT, local, 8);
            Check.equal(2, got[0], "the original's message, though the dup's was sent first");
            dup.Recv(got, 0, 1, MPI.INT, local, 8);
            Check.equal(1, got[0], "the dup's message");
            a.Wait();
            b.Wait();
        }

        final Intracomm merged = inter.Merge(!even);
        Check.equal(size, merged.Size(), "the merged size");
        Check.equal(even ? rank / 2 : evens + rank / 2, merged.Rank(), "evens first in the merge");
        final int[] sum = new int[1];
        merged.Allreduce(new int[] {rank}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        Check.equal(size * (size - 1) / 2, sum[0], "Allreduce over the merge");
        // The merge's messages never match the world's.
        merged.Barrier();
        MPI.Finalize();
    }
}
