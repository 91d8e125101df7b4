package org.troupe.mpi.conformance;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/** Derived datatypes: what an item is made of, and messages of them between ranks (two ranks or more). */
public final class Datatypes {
    private Datatypes() {}

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        shapes();
        final int peer = world.Size() == 1 ? 0 : 1 - Math.min(rank, 1);
        if (rank <= 1) {
            replaceAndFree(world, rank, peer);
            columns(world, rank, peer);
            indexedAndStruct(world, rank, peer);
            packed(world, rank, peer);
        }
        world.Barrier();
        // A column of rank 0's matrix broadcast into a column of everyone's.
        final Datatype column = Datatype.Vector(3, 1, 4, MPI.LONG);
        final long[] m = new long[12];
        if (rank == 0) {
            for (int i = 0; i < 12; i++) {
                m[i] = i;
            }
        }
        world.Bcast(m, 1, 1, column, 0);
        Check.equal(
                rank == 0
                        ? new long[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
                        : new long[] {0, 1, 0, 0, 0, 5, 0, 0, 0, 9, 0, 0},
                m,
                "Bcast of a column");
        Check.fails(
                () -> world.Reduce(m, 0, new long[12], 0, 1, column, MPI.SUM, 0),
                "takes a basic or contiguous datatype",
                "a reduction of a vector");
        world.Barrier();
        MPI.Finalize();
    }

    private static void shapes() throws MPIException {
        final Datatype v = Datatype.Vector(3, 2, 5, MPI.INT);
        Check.equal(6, v.Size(), "Vector's size");
        Check.equal(12, v.Extent(), "Vector's extent: (3 - 1) * 5 + 2");
        final Datatype h = Datatype.Hvector(3, 2, 5, MPI.INT);
        Check.equal(12, h.Extent(), "Hvector with the stride in elements");
        final Datatype c = Datatype.Contiguous(4, MPI.DOUBLE2);
        Check.equal(8, c.Size(), "Contiguous of pairs");
        final Datatype s =
                Datatype.Struct(new int[] {1, 1, 1}, new int[] {0, 2, 3}, new Datatype[] {MPI.INT, MPI.INT, MPI.UB});
        Check.equal(2, s.Size(), "Struct's size");
        Check.equal(3, s.Extent(), "Struct's extent, set by MPI.UB");
        Check.equal(0, s.Lb(), "Struct's lower bound");
        Check.fails(
                () -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1}, new Datatype[] {MPI.INT, MPI.DOUBLE}),
                "mix INT and DOUBLE",
                "a Struct of two element types");
        Check.fails(() -> MPI.COMM_SELF.Send(new int[1], 0, 1, MPI.UB, 0, 0), "marks a bound", "a marker as a type");
    }

    private static void replaceAndFree(final Intracomm world, final int rank, final int peer) throws MPIException {
        final Datatype diagonal = Datatype.Vector(3, 1, 4, MPI.INT);
        final int[] m = new int[9];
        for (int i = 0; i < 9; i++) {
            m[i] = 10 * rank + i;
        }
        world.Sendrecv_replace(m, 0, 1, diagonal, peer, 7, peer, 7);
        Check.equal(
                new int[] {
                    10 * peer,
                    1 + 10 * rank,
                    2 + 10 * rank,
                    3 + 10 * rank,
                    4 + 10 * peer,
                    5 + 10 * rank,
                    6 + 10 * rank,
                    7 + 10 * rank,
                    8 + 10 * peer
                },
                m,
                "Sendrecv_replace of a diagonal");

        final int[] into = new int[9];
        world.Irecv(into, 0, 1, diagonal, peer, 8).Free(); // freed, yet it fills the buffer when its message comes
        world.Send(new int[] {1, 2, 3}, 0, 3, MPI.INT, peer, 8);
        world.Sendrecv(new int[0], 0, 0, MPI.INT, peer, 9, new int[0], 0, 0, MPI.INT, peer, 9); // both sent now
        Check.equal(new int[] {1, 0, 0, 0, 2, 0, 0, 0, 3}, into, "a freed receive of a derived type");
    }

    /** A column of a 4 x 5 matrix, sent as a Vector, received as 4 ints and as another matrix's column. */
    private static void columns(final Intracomm world, final int rank, final int peer) throws MPIException {
        final Datatype column = Datatype.Vector(4, 1, 5, MPI.INT);
        final int[] matrix = new int[20];
        for (int i = 0; i < 20; i++) {
            matrix[i] = 100 * rank + i;
        }
        final int[] flat = new int[4];
        final var sent = world.Isend(matrix, 2, 1, column, peer, 1);
        final Status s = world.Recv(flat, 0, 4, MPI.INT, peer, 1);
        sent.Wait();
        Check.equal(
                new int[] {100 * peer + 2, 100 * peer + 7, 100 * peer + 12, 100 * peer + 17},
                flat,
                "a column received as ints");
        Check.equal(4, s.Get_count(MPI.INT), "4 ints");
        Check.equal(1, s.Get_count(column), "one column");

        final int[] other = new int[20];
        final var sent2 = world.Isend(matrix, 1, 1, column, peer, 2);
        final Status s2 = world.Recv(other, 3, 1, column, peer, 2);
        sent2.Wait();
        for (int i = 0; i < 20; i++) {
            Check.equal(
                    i % 5 == 3 ? 100 * peer + (i / 5) * 5 + 1 : 0,
                    other[i],
                    "element " + i + " of the received column");
        }
        Check.equal(1, s2.Get_count(column), "Get_count of the column");

        final var big = world.Isend(new int[10], 0, 10, MPI.INT, peer, 3);
        Check.fails(
                () -> world.Recv(new int[20], 0, 1, column, peer, 3),
                "message truncated",
                "10 ints into one column of 4");
        big.Wait();
    }

    /** An int, a column of doubles and a boolean packed into one message of bytes, and unpacked. */
    private static void packed(final Intracomm world, final int rank, final int peer) throws MPIException {
        final Datatype column = Datatype.Vector(2, 1, 3, MPI.DOUBLE);
        final int size = world.Pack_size(1, MPI.INT) + world.Pack_size(1, column) + world.Pack_size(1, MPI.BOOLEAN);
        Check.equal(4 + 16 + 1, size, "Pack_size");
        final byte[] out = new byte[size];
        int at = world.Pack(new int[] {rank + 40}, 0, 1, MPI.INT, out, 0);
        at = world.Pack(new double[] {0.5, -1, -1, 1.5, -1, -1}, 0, 1, column, out, at);
        at = world.Pack(new boolean[] {true}, 0, 1, MPI.BOOLEAN, out, at);
        Check.equal(size, at, "the position after packing");
        final byte[] in = new byte[size];
        final var sent = world.Isend(out, 0, size, MPI.PACKED, peer, 6);
        world.Recv(in, 0, size, MPI.PACKED, peer, 6);
        sent.Wait();
        final int[] i = new int[1];
        final double[] d = new double[6];
        final boolean[] b = new boolean[1];
        at = world.Unpack(in, 0, i, 0, 1, MPI.INT);
        at = world.Unpack(in, at, d, 0, 1, column);
        world.Unpack(in, at, b, 0, 1, MPI.BOOLEAN);
        Check.equal(peer + 40, i[0], "the packed int");
        Check.equal(new double[] {0.5, 0, 0, 1.5, 0, 0}, d, "the packed column, unpacked into a column");
        Check.that(b[0], "the packed boolean");
        Check.fails(
                () -> world.Unpack(in, size - 2, i, 0, 1, MPI.INT),
                "are not in a buffer of 21 bytes",
                "unpacking past the end");
    }

    private static void indexedAndStruct(final Intracomm world, final int rank, final int peer) throws MPIException {
        final Datatype picks = Datatype.Indexed(new int[] {2, 1}, new int[] {0, 5}, MPI.DOUBLE);
        final double[] d = {1, 2, 3, 4, 5, 6, 7};
        final double[] got = new double[3];
        final var sent = world.Isend(d, 1, 1, picks, peer, 4);
        world.Recv(got, 0, 3, MPI.DOUBLE, peer, 4);
        sent.Wait();
        Check.equal(new double[] {2, 3, 7}, got, "an Indexed type's elements, in order");

        // Two items of a Struct {int at 0, int at 2, extent 3}: elements 0, 2, 3, 5.
        final Datatype s =
                Datatype.Struct(new int[] {1, 1, 1}, new int[] {0, 2, 3}, new Datatype[] {MPI.INT, MPI.INT, MPI.UB});
        final int[] src = {10, 11, 12, 13, 14, 15};
        final int[] dst = new int[6];
        final var sent2 = world.Isend(src, 0, 2, s, peer, 5);
        final Status st = world.Recv(dst, 0, 2, s, peer, 5);
        sent2.Wait();
        Check.equal(new int[] {10, 0, 12, 13, 0, 15}, dst, "a Struct sent and received as itself");
        Check.equal(2, st.Get_count(s), "two Struct items");
        Check.equal(4, st.Get_elements(s), "four elements");
    }
}
