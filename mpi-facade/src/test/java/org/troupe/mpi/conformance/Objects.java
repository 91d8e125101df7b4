package org.troupe.mpi.conformance;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.BitSet;
import java.util.Date;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Stack;
import java.util.UUID;
import java.util.Vector;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * MPI.OBJECT: the program's own classes, rows of a matrix, shared and cyclic references, collectives; the JDK's
 * serializable data classes and classes that serialize themselves, as MPJ Express programs send them.
 */
public final class Objects {
    /** A class of the program: it travels without being named anywhere. */
    record Point(int x, String label) {}

    /** Serializes itself: keeps a derived field transient and recomputes it, and writes a stamp of its own. */
    static final class Histogram implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;

        final int[] bins;
        transient int total;
        transient String stamp;

        Histogram(final int... bins) {
            this.bins = bins;
            this.total = IntStream.of(bins).sum();
        }

        @Serial
        private void writeObject(final ObjectOutputStream out) throws IOException {
            out.defaultWriteObject();
            out.writeUTF("written with " + bins.length + " bins");
        }

        @Serial
        private void readObject(final ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            stamp = in.readUTF();
            total = IntStream.of(bins).sum();
        }
    }

    /** Writes and reads itself whole; not public, as a program's helper classes often are not. */
    static final class Sample implements Externalizable {
        double value;

        public Sample() {}

        Sample(final double value) {
            this.value = value;
        }

        @Override
        public void writeExternal(final ObjectOutput out) throws IOException {
            out.writeDouble(value);
        }

        @Override
        public void readExternal(final ObjectInput in) throws IOException {
            value = in.readDouble();
        }
    }

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
        jdkClassesAndSelfSerializing(world, rank, next, prev);
        Check.fails(
                () -> world.Send(new Object[1], 0, 1, MPI.INT, next, 3),
                "must be an int[], not an Object[]",
                "objects as ints");
        world.Barrier();
        MPI.Finalize();
    }

    /** What MPJ Express programs send that Troupe's serializers alone would not: JDK classes, readObject. */
    private static void jdkClassesAndSelfSerializing(
            final Intracomm world, final int rank, final int next, final int prev) {
        final Vector<Point> points = new Vector<>(List.of(new Point(rank, "a"), new Point(rank + 1, "b")));
        final Stack<String> stack = new Stack<>();
        stack.push("bottom");
        stack.push("top " + rank);
        final Hashtable<String, Integer> table = new Hashtable<>(Map.of("rank", rank));
        final UUID id = new UUID(rank, 42);
        final BitSet bits = BitSet.valueOf(new long[] {rank, 5});
        final Object[] out = {
            points,
            stack,
            table,
            new Date(1_000L * rank),
            id,
            bits,
            Instant.ofEpochSecond(rank),
            LocalDate.of(2026, 11, 1 + rank),
            Duration.ofMillis(rank),
            new Histogram(rank, 2, 3),
            new Sample(rank / 2.0)
        };
        final Object[] in = new Object[out.length];
        final var sent = world.Isend(out, 0, out.length, MPI.OBJECT, next, 4);
        world.Recv(in, 0, in.length, MPI.OBJECT, prev, 4);
        sent.Wait();
        Check.equal(
                new Vector<>(List.of(new Point(prev, "a"), new Point(prev + 1, "b"))), in[0], "a Vector of records");
        Check.that(in[1] instanceof Stack<?> s && s.peek().equals("top " + prev), "a Stack, its top on top");
        Check.equal(new Hashtable<>(Map.of("rank", prev)), in[2], "a Hashtable");
        Check.equal(new Date(1_000L * prev), in[3], "a Date");
        Check.equal(new UUID(prev, 42), in[4], "a UUID");
        Check.equal(BitSet.valueOf(new long[] {prev, 5}), in[5], "a BitSet");
        Check.equal(Instant.ofEpochSecond(prev), in[6], "an Instant");
        Check.equal(LocalDate.of(2026, 11, 1 + prev), in[7], "a LocalDate");
        Check.equal(Duration.ofMillis(prev), in[8], "a Duration");
        final Histogram h = (Histogram) in[9];
        Check.equal(prev + 5, h.total, "readObject recomputed a transient field");
        Check.equal("written with 3 bins", h.stamp, "readObject read what writeObject wrote");
        Check.equal(prev / 2.0, ((Sample) in[10]).value, "an Externalizable");
    }
}
