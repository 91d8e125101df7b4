package org.troupe.mpi.conformance;

import java.nio.ByteBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/** Point-to-point semantics, rank by rank; any number of ranks (some checks need two or more). */
public final class PointToPoint {
    private PointToPoint() {}

    public static void main(final String[] args) throws MPIException {
        final String[] mine = MPI.Init(new String[] {"a", "b"});
        Check.equal(new String[] {"a", "b"}, mine, "Init returns the program's arguments");
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final int size = world.Size();
        ring(world, rank, size);
        selfAndNull(world, rank);
        sendrecvReplace(world, rank, size);
        persistent(world, rank, size);
        errors(world, size);
        if (size >= 2) {
            wildcards(world, rank, size);
            world.Barrier(); // the wildcard receives would take the next scenario's messages
            order(world, rank);
            large(world, rank, size);
            flowControl(world, rank);
            truncation(world, rank);
            synchronous(world, rank);
            probeAndCancel(world, rank);
            buffered(world, rank);
            waitFamilies(world, rank);
            failedSendrecv(world, rank, size);
            interrupted(world, rank);
        }
        MPI.COMM_WORLD.Barrier();
        MPI.Finalize();
        Check.fails(() -> world.Rank(), "MPI.Finalize has been called", "a call after Finalize");
    }

    /** Each rank sends its rank to the next one, around the ring. */
    private static void ring(final Intracomm world, final int rank, final int size) throws MPIException {
        final int[] out = {rank * 10};
        final int[] in = {-1};
        final Request r = world.Irecv(in, 0, 1, MPI.INT, (rank - 1 + size) % size, 5);
        world.Send(out, 0, 1, MPI.INT, (rank + 1) % size, 5);
        final Status s = r.Wait();
        Check.equal(((rank - 1 + size) % size) * 10, in[0], "the value from the previous rank");
        Check.equal((rank - 1 + size) % size, s.source, "status source");
        Check.equal(5, s.tag, "status tag");
        Check.equal(1, s.Get_count(MPI.INT), "status count");
        Check.that(r.Is_null(), "a waited request is a null request");
    }

    private static void selfAndNull(final Intracomm world, final int rank) throws MPIException {
        final double[] d = {1.5, 2.5, 3.5};
        final double[] got = new double[5];
        MPI.COMM_SELF.Send(d, 1, 2, MPI.DOUBLE, 0, 0);
        final Status s = MPI.COMM_SELF.Recv(got, 3, 2, MPI.DOUBLE, 0, 0);
        Check.equal(new double[] {0, 0, 0, 2.5, 3.5}, got, "a message to oneself, with offsets");
        Check.equal(0, s.source, "source on COMM_SELF");
        world.Send(d, 0, 3, MPI.DOUBLE, MPI.PROC_NULL, 1);
        final Status n = world.Recv(got, 0, 3, MPI.DOUBLE, MPI.PROC_NULL, 1);
        Check.equal(MPI.PROC_NULL, n.source, "the source of a receive from PROC_NULL");
        Check.equal(0, n.Get_count(MPI.DOUBLE), "a receive from PROC_NULL gets nothing");
        Check.equal(2.5, got[3], "a receive from PROC_NULL writes nothing");
    }

    private static void sendrecvReplace(final Intracomm world, final int rank, final int size) throws MPIException {
        final long[] buf = {rank, rank * 2L};
        final Status s = world.Sendrecv_replace(buf, 0, 2, MPI.LONG, (rank + 1) % size, 3, (rank - 1 + size) % size, 3);
        final long prev = (rank - 1 + size) % size;
        Check.equal(new long[] {prev, prev * 2}, buf, "Sendrecv_replace around the ring");
        Check.equal((int) prev, s.source, "its status");
    }

    private static void persistent(final Intracomm world, final int rank, final int size) throws MPIException {
        final int[] out = new int[1];
        final int[] in = new int[1];
        final Prequest send = world.Send_init(out, 0, 1, MPI.INT, (rank + 1) % size, 8);
        final Prequest recv = world.Recv_init(in, 0, 1, MPI.INT, (rank - 1 + size) % size, 8);
        for (int round = 0; round < 3; round++) {
            out[0] = 100 * round + rank;
            Prequest.Startall(new Prequest[] {recv, send});
            Request.Waitall(new Request[] {recv, send});
            Check.equal(100 * round + (rank - 1 + size) % size, in[0], "persistent round " + round);
            Check.that(!send.Is_null(), "a persistent request is inactive between starts, not null");
        }
        send.Free();
        recv.Free();
        Check.that(send.Is_null(), "a freed persistent request is null");
    }

    /** A Sendrecv whose send is wrong posts no receive that would take a later message. */
    private static void failedSendrecv(final Intracomm world, final int rank, final int size) throws MPIException {
        if (rank == 1) {
            final int[] b = new int[1];
            Check.fails(
                    () -> world.Sendrecv(b, 0, 1, MPI.INT, size + 5, 0, b, 0, 1, MPI.INT, 0, 40),
                    "dest rank " + (size + 5),
                    "a Sendrecv to a rank past the end");
            world.Recv(b, 0, 1, MPI.INT, 0, 40);
            Check.equal(42, b[0], "the next receive gets the message");
        } else if (rank == 0) {
            world.Send(new int[] {42}, 0, 1, MPI.INT, 1, 40);
        }
        world.Barrier();
    }

    /** A thread interrupted while it waits for a message still gets it, and keeps its interrupt. */
    private static void interrupted(final Intracomm world, final int rank) throws MPIException {
        if (rank == 1) {
            final Thread self = Thread.currentThread();
            final Thread interrupter = new Thread(self::interrupt);
            interrupter.start();
            final int[] b = new int[1];
            world.Recv(b, 0, 1, MPI.INT, 0, 41); // rank 0 sends only after the barrier below... after this returns
            Check.equal(43, b[0], "the message, though interrupted");
            // On a loaded host the interrupter may run only after the message came: wait for it before looking at
            // the flag (join would consume the flag by throwing), else the check fails with nothing lost.
            while (interrupter.isAlive()) {
                Thread.onSpinWait();
            }
            Check.that(Thread.interrupted(), "the interrupt is kept");
        } else if (rank == 0) {
            try {
                Thread.sleep(20); // rank 1 is waiting (and interrupted) by then
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            world.Send(new int[] {43}, 0, 1, MPI.INT, 1, 41);
        }
        world.Barrier();
    }

    private static void errors(final Intracomm world, final int size) throws MPIException {
        final int[] b = new int[4];
        Check.fails(
                () -> world.Send(b, 0, 1, MPI.INT, size, 0),
                "dest rank " + size + " is not in this" + " communicator",
                "a rank past the end");
        Check.fails(() -> world.Send(b, 0, 1, MPI.INT, 0, -5), "tag -5 is negative", "a negative tag");
        Check.fails(
                () -> world.Send(b, 0, 1, MPI.DOUBLE, 0, 0),
                "must be a double[], not an int[]",
                "a buffer of another type");
        Check.fails(() -> world.Send(b, 2, 3, MPI.INT, 0, 0), "do not fit in a buffer of 4", "past the buffer");
        Check.fails(() -> world.Recv(b, 0, -1, MPI.INT, 0, 0), "count -1 is negative", "a negative count");
        Check.fails(() -> world.Send(b, 0, 1, null, 0, 0), "the datatype is null", "no datatype");
    }

    /** Rank 0 takes one message from every other rank, in any order, by wildcard. */
    private static void wildcards(final Intracomm world, final int rank, final int size) throws MPIException {
        if (rank != 0) {
            world.Send(new int[] {rank, rank, rank}, 0, rank % 3 + 1, MPI.INT, 0, 100 + rank);
            return;
        }
        final boolean[] seen = new boolean[size];
        for (int i = 1; i < size; i++) {
            final int[] in = new int[3];
            final Status s = world.Recv(in, 0, 3, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            Check.that(s.source >= 1 && s.source < size && !seen[s.source], "a new source, not " + s.source);
            seen[s.source] = true;
            Check.equal(100 + s.source, s.tag, "the tag of rank " + s.source);
            Check.equal(s.source % 3 + 1, s.Get_count(MPI.INT), "the count of rank " + s.source);
            Check.equal(s.source, in[0], "the data of rank " + s.source);
        }
    }

    /** Messages from one rank with one tag arrive in order, eager and rendezvous ones mixed. */
    private static void order(final Intracomm world, final int rank) throws MPIException {
        final int n = 40;
        final int large = 10_000; // 80 KB of doubles: past the eager limit
        if (rank == 1) {
            final Request[] sends = new Request[n];
            for (int i = 0; i < n; i++) {
                final double[] msg = new double[i % 5 == 0 ? large : 1];
                msg[0] = i;
                sends[i] = world.Isend(msg, 0, msg.length, MPI.DOUBLE, 0, 7);
            }
            Request.Waitall(sends);
        } else if (rank == 0) {
            final double[] in = new double[large];
            for (int i = 0; i < n; i++) {
                final Status s = world.Recv(in, 0, large, MPI.DOUBLE, 1, 7);
                Check.equal((double) i, in[0], "message " + i + " in order");
                Check.equal(i % 5 == 0 ? large : 1, s.Get_count(MPI.DOUBLE), "the size of message " + i);
            }
        }
    }

    /**
     * Large messages (between JVMs their data travels in several frames), from and into the middle of arrays, of
     * two kinds at once from every other rank: each element lands where it belongs.
     */
    private static void large(final Intracomm world, final int rank, final int size) throws MPIException {
        final int doubles = 100_003; // 800 KB: four frames, the last one short
        final int ints = 300_001;
        if (rank == 0) {
            final double[][] d = new double[size][doubles + 10];
            final int[][] in = new int[size][ints + 3];
            final Request[] receives = new Request[2 * (size - 1)];
            for (int r = 1; r < size; r++) {
                receives[2 * r - 2] = world.Irecv(d[r], 10, doubles, MPI.DOUBLE, r, 40);
                receives[2 * r - 1] = world.Irecv(in[r], 3, ints, MPI.INT, r, 41);
            }
            Request.Waitall(receives);
            for (int r = 1; r < size; r++) {
                for (int i = 0; i < doubles; i++) {
                    if (d[r][10 + i] != r * 1e6 + i) {
                        Check.equal(r * 1e6 + i, d[r][10 + i], "double " + i + " from rank " + r);
                    }
                }
                for (int i = 0; i < ints; i++) {
                    if (in[r][3 + i] != r - i) {
                        Check.equal(r - i, in[r][3 + i], "int " + i + " from rank " + r);
                    }
                }
                Check.equal(0.0, d[r][9], "nothing written before the receive's offset");
            }
        } else {
            final double[] d = new double[doubles + 5];
            final int[] out = new int[ints + 7];
            for (int i = 0; i < doubles; i++) {
                d[5 + i] = rank * 1e6 + i;
            }
            for (int i = 0; i < ints; i++) {
                out[7 + i] = rank - i;
            }
            Request.Waitall(new Request[] {
                world.Isend(out, 7, ints, MPI.INT, 0, 41), world.Isend(d, 5, doubles, MPI.DOUBLE, 0, 40)
            });
        }
    }

    /**
     * A sender far ahead of its receiver: its small sends complete at once only while what waits at the receiver
     * stays within the pair's credit; the rest wait for their receives. All arrive, in order.
     */
    private static void flowControl(final Intracomm world, final int rank) throws MPIException {
        final int n = 1_500;
        final int bytes = 16 * 1024; // small enough to go eagerly
        if (rank == 1) {
            final Request[] sends = new Request[n];
            for (int i = 0; i < n; i++) {
                final byte[] msg = new byte[bytes];
                msg[0] = (byte) i;
                msg[bytes - 1] = (byte) (i >> 8);
                sends[i] = world.Isend(msg, 0, bytes, MPI.BYTE, 0, 50);
            }
            int completed = 0;
            for (final Request r : sends) {
                if (r.Test() != null) {
                    completed++;
                }
            }
            Check.that(
                    completed > 0 && (long) completed * (bytes + 128) <= 8L << 20,
                    completed + " of " + n + " sends of 16 KiB completed before any receive: the credit is 8 MiB");
            world.Barrier();
            Request.Waitall(sends);
        } else if (rank == 0) {
            world.Barrier();
            final byte[] in = new byte[bytes];
            for (int i = 0; i < n; i++) {
                world.Recv(in, 0, bytes, MPI.BYTE, 1, 50);
                Check.equal((byte) i, in[0], "message " + i + " in order");
                Check.equal((byte) (i >> 8), in[bytes - 1], "the end of message " + i);
            }
        } else {
            world.Barrier();
        }
    }

    private static void truncation(final Intracomm world, final int rank) throws MPIException {
        if (rank == 1) {
            world.Send(new int[] {1, 2, 3, 4, 5, 6}, 0, 6, MPI.INT, 0, 9);
        } else if (rank == 0) {
            final int[] small = {-1, -1, -1};
            Check.fails(
                    () -> world.Recv(small, 0, 3, MPI.INT, 1, 9),
                    "message truncated: 6 INT elements",
                    "a message larger than the receive");
            Check.equal(new int[] {-1, -1, -1}, small, "a truncated receive writes nothing");
        }
    }

    /** An Issend is not complete before the receive is posted, and is after. */
    private static void synchronous(final Intracomm world, final int rank) throws MPIException {
        final int[] v = {42};
        if (rank == 0) {
            final Request r = world.Issend(v, 0, 1, MPI.INT, 1, 11);
            Check.that(r.Test() == null, "an Issend completes only when its receive is posted");
            world.Barrier();
            r.Wait();
        } else if (rank == 1) {
            world.Barrier();
            final int[] in = new int[1];
            world.Recv(in, 0, 1, MPI.INT, 0, 11);
            Check.equal(42, in[0], "the Issend's data");
        } else {
            world.Barrier();
        }
    }

    private static void probeAndCancel(final Intracomm world, final int rank) throws MPIException {
        if (rank == 1) {
            world.Send(new double[] {1, 2, 3}, 0, 3, MPI.DOUBLE, 0, 12);
        } else if (rank == 0) {
            final Status p = world.Probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
            Check.equal(1, p.source, "Probe's source");
            Check.equal(12, p.tag, "Probe's tag");
            Check.equal(3, p.Get_count(MPI.DOUBLE), "Probe's count");
            Check.that(world.Iprobe(1, 13) == null, "Iprobe finds nothing for another tag");
            Check.that(world.Iprobe(1, 12) != null, "the probed message is still there");
            final double[] in = new double[3];
            world.Recv(in, 0, 3, MPI.DOUBLE, 1, 12);
            Check.equal(new double[] {1, 2, 3}, in, "the probed message");
            final Request never = world.Irecv(new int[1], 0, 1, MPI.INT, 1, 999);
            never.Cancel();
            Check.that(never.Wait().Test_cancelled(), "a cancelled receive says so");
            // A large send no receive has matched: withdrawn (from another JVM too), and its Wait returns.
            final Request unmatched = world.Isend(new int[100_000], 0, 100_000, MPI.INT, 1, 998);
            unmatched.Cancel();
            Check.that(unmatched.Wait().Test_cancelled(), "a cancelled large send says so");
        }
        world.Barrier();
        if (rank == 1) {
            Check.that(world.Iprobe(0, 998) == null, "a cancelled send is not there to receive");
        }
    }

    private static void buffered(final Intracomm world, final int rank) throws MPIException {
        if (rank == 0) {
            final int[] v = {7, 8};
            Check.fails(() -> world.Bsend(v, 0, 2, MPI.INT, 1, 14), "no buffer is attached", "Bsend without a buffer");
            final ByteBuffer small = ByteBuffer.allocate(MPI.BSEND_OVERHEAD);
            MPI.Buffer_attach(small);
            Check.fails(
                    () -> world.Bsend(v, 0, 2, MPI.INT, 1, 14),
                    "has " + MPI.BSEND_OVERHEAD + " free",
                    "an attached buffer too small");
            Check.equal(small, MPI.Buffer_detach(), "the attached buffer comes back");
            MPI.Buffer_attach(ByteBuffer.allocate(2 * 4 + MPI.BSEND_OVERHEAD));
            world.Bsend(v, 0, 2, MPI.INT, 1, 14);
            v[0] = -1; // the message holds its own copy
            MPI.Buffer_detach();
            // The message is not received yet; its room went with the detached buffer: a new one starts empty.
            MPI.Buffer_attach(ByteBuffer.allocate(2 * 4 + MPI.BSEND_OVERHEAD));
            world.Bsend(new int[] {9, 9}, 0, 2, MPI.INT, 1, 15);
            MPI.Buffer_detach();
        } else if (rank == 1) {
            final int[] in = new int[2];
            world.Recv(in, 0, 2, MPI.INT, 0, 14);
            Check.equal(new int[] {7, 8}, in, "a buffered message");
            world.Recv(in, 0, 2, MPI.INT, 0, 15);
            Check.equal(new int[] {9, 9}, in, "a buffered message from the next attached buffer");
        }
        world.Barrier();
    }

    private static void waitFamilies(final Intracomm world, final int rank) throws MPIException {
        if (rank == 0) {
            final int[][] in = new int[3][1];
            final Request[] rs = new Request[3];
            for (int i = 0; i < 3; i++) {
                rs[i] = world.Irecv(in[i], 0, 1, MPI.INT, 1, 20 + i);
            }
            Check.that(Request.Testall(rs) == null, "Testall before any message");
            world.Send(new int[0], 0, 0, MPI.INT, 1, 30); // go
            final Status first = Request.Waitany(rs);
            Check.equal(2, first.index, "Waitany finds the one message sent first");
            Check.equal(22, first.tag, "its tag");
            world.Send(new int[0], 0, 0, MPI.INT, 1, 31); // go on
            final Status[] rest = Request.Waitall(rs);
            Check.equal(3, rest.length, "Waitall gives a status per request");
            Check.equal(new int[] {20, 21, 22}, new int[] {in[0][0], in[1][0], in[2][0]}, "the data of all three");
            Check.equal(MPI.UNDEFINED, Request.Waitany(rs).index, "Waitany over null requests");
        } else if (rank == 1) {
            world.Recv(new int[0], 0, 0, MPI.INT, 0, 30);
            world.Send(new int[] {22}, 0, 1, MPI.INT, 0, 22);
            world.Recv(new int[0], 0, 0, MPI.INT, 0, 31);
            world.Send(new int[] {20}, 0, 1, MPI.INT, 0, 20);
            world.Send(new int[] {21}, 0, 1, MPI.INT, 0, 21);
        }
        world.Barrier();
    }
}
