package org.troupe.mpi.conformance;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/** MPI.OBJECT: the program's own classes, rows of a matrix, shared and cyclic references, collectives. */
public final class Objects {
    /** A class of the program: it travels without being named anywhere. */
    record Point(int x, String label) {}

    /** Refers to itself. */
    static final class Loop {
        Loop next;
        int value;
    }

    private Objects() {}

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final int size = world.Size();
        final int next = (rank + 1) % size;
        final int prev = (rank - 1 + size) % size;

        // The first MPI.OBJECT call comes from a thread of the common pool, which has no rank of its own.
        final Object[] fromPool = new Object[1];
        CompletableFuture.runAsync(() -> {
                    try {
                        final var s = MPI.COMM_SELF.Isend(new Object[] {new Point(7, "pool")}, 0, 1, MPI.OBJECT, 0, 9);
                        MPI.COMM_SELF.Recv(fromPool, 0, 1, MPI.OBJECT, 0, 9);
                        s.Wait();
                    } catch (MPIException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .join();
        Check.equal(new Point(7, "pool"), fromPool[0], "an object sent from a pool thread");
        final String[] words = {"a", "b"};
        final String[] heard = new String[2];
        final var w = MPI.COMM_SELF.Isend(words, 0, 2, MPI.OBJECT, 0, 10);
        MPI.COMM_SELF.Recv(heard, 0, 2, MPI.OBJECT, 0, 10);
        w.Wait();
        Check.equal(words, heard, "a String[] as MPI.OBJECT");

        final Loop loop = new Loop();
        loop.next = loop;
        loop.value = rank;
        final double[][] rows = {{rank, 1}, {2, 3, 4}};
        final Object[] out = {new Point(rank, "p" + rank), rows, loop, "text", 42, List.of(1, 2)};
        final Object[] in = new Object[7];
        final var sent = world.Isend(out, 0, out.length, MPI.OBJECT, next, 1);
        final Status s = world.Recv(in, 1, 6, MPI.OBJECT, MPI.ANY_SOURCE, 1);
        sent.Wait();
        Check.equal(prev, s.source, "the sender");
        Check.equal(6, s.Get_count(MPI.OBJECT), "six objects");
        Check.equal(null, in[0], "nothing before the offset");
        Check.equal(new Point(prev, "p" + prev), in[1], "a record of the program");
        Check.that(in[1].getClass() == Point.class, "the received record is of this rank's own class");
        Check.equal(new double[][] {{prev, 1}, {2, 3, 4}}, in[2], "rows of a matrix");
        final Loop got = (Loop) in[3];
        Check.that(got.next == got && got.value == prev, "a cycle arrives as a cycle");
        Check.equal("text", in[4], "a string");
        Check.equal(42, in[5], "an Integer");
        Check.equal(List.of(1, 2), in[6], "a list");

        final Object[] greeting = {rank == 0 ? new Point(-1, "root") : null};
        world.Bcast(greeting, 0, 1, MPI.OBJECT, 0);
        Check.equal(new Point(-1, "root"), greeting[0], "Bcast of an object");

        final Object[] all = new Object[size];
        world.Gather(new Object[] {"rank " + rank}, 0, 1, MPI.OBJECT, all, 0, 1, MPI.OBJECT, 0);
        if (rank == 0) {
            for (int r = 0; r < size; r++) {
                Check.equal("rank " + r, all[r], "Gather of objects, item " + r);
            }
        }

        final var three = world.Isend(new Object[] {1, 2, 3}, 0, 3, MPI.OBJECT, next, 2);
        Check.fails(
                () -> world.Recv(new Object[2], 0, 2, MPI.OBJECT, prev, 2),
                "message truncated: 3 OBJECT",
                "three objects into a receive of two");
        three.Wait();
        Check.fails(
                () -> world.Send(new Object[] {new AtomicInteger()}, 0, 1, MPI.OBJECT, next, 3),
                "java.util.concurrent.atomic.AtomicInteger",
                "a JDK class that is not a plain value");
        Check.fails(
                () -> world.Send(new Object[1], 0, 1, MPI.INT, next, 3),
                "must be an int[], not an Object[]",
                "objects as ints");
        world.Barrier();
        MPI.Finalize();
    }
}
