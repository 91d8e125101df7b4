package org.troupe.mpi.conformance;

import mpi.Comm;
import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * What MPJ Express programs use beyond mpiJava 1.2's core: {@code MPI.REQUEST_NULL} in request arrays,
 * {@code MPI.GROUP_EMPTY}, error handlers, {@code Test_inter}, {@code clone} on a {@code Comm}, a Struct of no
 * blocks, attributes, thread levels, the null handles and MPJ Express's constant values. Its main declares no
 * {@code throws}: MPIException is unchecked, as in MPJ Express. Any number of ranks.
 */
public final class MpjExpressApi {
    private MpjExpressApi() {}

    public static void main(final String[] args) {
        MPI.Init(args);
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final int size = world.Size();
        requestNull(world, rank, size);
        groups(world);
        errhandlers(world);
        communicators(world, rank, size);
        emptyStruct(world, rank, size);
        constantsAndAttributes(world, rank);
        world.Barrier();
        MPI.Finalize();
    }

    /** Request arrays filled with REQUEST_NULL, as the Waitany and Testany families of programs fill them. */
    private static void requestNull(final Intracomm world, final int rank, final int size) {
        Check.that(MPI.REQUEST_NULL.Is_null(), "REQUEST_NULL is a null request");
        final Request[] none = {MPI.REQUEST_NULL, MPI.REQUEST_NULL};
        Check.equal(MPI.UNDEFINED, Request.Waitany(none).index, "Waitany over REQUEST_NULLs");
        Check.equal(0, Request.Waitsome(none).length, "Waitsome over REQUEST_NULLs");
        Check.equal(2, Request.Testall(none).length, "Testall over REQUEST_NULLs");
        Check.equal(MPI.UNDEFINED, Request.Testany(none).index, "Testany over REQUEST_NULLs");
        MPI.REQUEST_NULL.Wait();
        MPI.REQUEST_NULL.Free();
        Check.that(MPI.REQUEST_NULL.Is_null(), "REQUEST_NULL stays null once freed");

        // Each rank receives from the one before it; the rest of the array is REQUEST_NULL.
        final int from = (rank + size - 1) % size;
        final int to = (rank + 1) % size;
        final int[] in = new int[1];
        final Request[] requests = {MPI.REQUEST_NULL, MPI.REQUEST_NULL, MPI.REQUEST_NULL};
        requests[1] = world.Irecv(in, 0, 1, MPI.INT, from, 7);
        final Request send = world.Isend(new int[] {100 + rank}, 0, 1, MPI.INT, to, 7);
        final Status got = Request.Waitany(requests);
        Check.equal(1, got.index, "Waitany skips REQUEST_NULL and finds the receive");
        Check.equal(from, got.source, "Waitany's status names the sender");
        Check.equal(100 + from, in[0], "the message received");
        send.Wait();
        Check.that(requests[1].Is_null(), "a request waited for is null");
    }

    private static void groups(final Intracomm world) {
        Check.equal(0, MPI.GROUP_EMPTY.Size(), "GROUP_EMPTY has no member");
        Check.equal(MPI.UNDEFINED, MPI.GROUP_EMPTY.Rank(), "no rank is in GROUP_EMPTY");
        final Group all = world.Group();
        Check.equal(MPI.IDENT, Group.Compare(Group.Difference(all, all), MPI.GROUP_EMPTY), "all minus all is empty");
        Check.equal(all.Size(), Group.Union(all, MPI.GROUP_EMPTY).Size(), "a union with GROUP_EMPTY");
    }

    private static void errhandlers(final Intracomm world) {
        final Intracomm mine = (Intracomm) world.clone();
        Check.that(mine.Errhandler_get() == MPI.ERRORS_ARE_FATAL, "a communicator's handler is ERRORS_ARE_FATAL");
        mine.Errhandler_set(MPI.ERRORS_RETURN);
        Check.that(mine.Errhandler_get() == MPI.ERRORS_RETURN, "the handler set is the handler got");
        Check.that(world.Errhandler_get() == MPI.ERRORS_ARE_FATAL, "another communicator's handler is its own");
        Check.fails(
                () -> mine.Send(new int[1], 0, 1, MPI.INT, world.Size(), 0), "rank", "an error under ERRORS_RETURN");
        Check.fails(() -> mine.Errhandler_set(null), "the handler is null", "a null handler");
        mine.Free();
    }

    private static void communicators(final Intracomm world, final int rank, final int size) {
        Check.that(!world.Test_inter(), "COMM_WORLD is no intercommunicator");
        final Comm asComm = world;
        final Comm copy = (Comm) asComm.clone();
        Check.equal(MPI.CONGRUENT, Comm.Compare(world, copy), "clone through a Comm");
        Check.equal(rank, copy.Rank(), "the clone's rank");
        if (size >= 2) {
            final Intracomm half = world.Split(rank % 2, rank);
            final var inter = world.Create_intercomm(half, 0, rank % 2 == 0 ? 1 : 0, 5);
            Check.that(inter.Test_inter(), "an intercommunicator says so");
            inter.Free();
            half.Free();
        }
        copy.Free();
        // Unchecked: an MPI error reaches a caller that declares nothing, and a catch of RuntimeException.
        try {
            world.Send(new int[1], 0, 1, MPI.INT, size, 0);
            throw new AssertionError("a send to rank " + size + " of " + size + " went through");
        } catch (RuntimeException e) {
            Check.that(e instanceof MPIException, "an MPI error is an MPIException: " + e);
        }
    }

    /** A Struct of no blocks: MPI allows it; its size is 0, it takes any buffer, and sends nothing. */
    private static void emptyStruct(final Intracomm world, final int rank, final int size) {
        final Datatype empty = Datatype.Struct(new int[0], new int[0], new Datatype[0]);
        empty.Commit();
        Check.equal(0, empty.Size(), "an empty Struct's size");
        Check.equal(0, empty.Extent(), "an empty Struct's extent");
        final int[] untouched = {42, 43};
        final Status s = world.Sendrecv(
                new double[] {1.5},
                0,
                1,
                empty,
                (rank + 1) % size,
                9,
                untouched,
                0,
                1,
                empty,
                (rank + size - 1) % size,
                9);
        Check.equal(new int[] {42, 43}, untouched, "nothing is written by a message of no data");
        Check.equal(0, s.Get_count(empty), "Get_count of an empty Struct");
        Check.equal(MPI.UNDEFINED, s.Get_elements(empty), "Get_elements of an empty Struct");
        empty.Free();
    }

    /** The values MPJ Express gives, which programs may have written out; attributes; thread levels; null handles. */
    private static void constantsAndAttributes(final Intracomm world, final int rank) {
        Check.equal(
                new int[] {-1, -2, -2, -3, 0, 3, 1, 2, 1, 2},
                new int[] {
                    MPI.UNDEFINED,
                    MPI.ANY_SOURCE,
                    MPI.ANY_TAG,
                    MPI.PROC_NULL,
                    MPI.IDENT,
                    MPI.CONGRUENT,
                    MPI.SIMILAR,
                    MPI.UNEQUAL,
                    MPI.GRAPH,
                    MPI.CART
                },
                "UNDEFINED, ANY_SOURCE, ANY_TAG, PROC_NULL, IDENT, CONGRUENT, SIMILAR, UNEQUAL, GRAPH, CART");
        Check.equal(-1, world.Topo_test(), "Topo_test of a communicator without a topology: -1 (MPI.UNDEFINED)");
        Check.equal(Integer.MAX_VALUE, world.Attr_get(MPI.TAG_UB), "the attribute TAG_UB");
        Check.equal(MPI.PROC_NULL, world.Attr_get(MPI.HOST), "the attribute HOST");
        Check.equal(rank, world.Attr_get(MPI.IO), "the attribute IO");
        Check.fails(() -> world.Attr_get(77), "no attribute key", "an unknown attribute key");
        Check.fails(() -> world.Send(new int[1], 0, 1, MPI.INT, 0, -5), "is negative", "a negative tag");

        Check.equal(MPI.THREAD_MULTIPLE, MPI.queryThread(), "the thread level");
        Check.that(MPI.isMainThread(), "the thread that called Init is the main thread");
        final boolean[] other = {true};
        final Thread t = new Thread(() -> other[0] = MPI.isMainThread());
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        Check.that(!other[0], "another thread is not the main thread");

        Check.that(MPI.COMM_NULL.Is_null(), "COMM_NULL is a null communicator");
        Check.fails(() -> MPI.COMM_NULL.Size(), "freed", "a call on COMM_NULL");
        Check.that(MPI.GROUP_NULL != MPI.GROUP_EMPTY, "GROUP_NULL is not GROUP_EMPTY");
        Check.equal(MPI.ANY_SOURCE, MPI.EMPTY_STATUS.source, "EMPTY_STATUS's source");
        Check.fails(() -> world.Send(new int[1], 0, 1, MPI.NULL, 0, 0), "not a type of data", "MPI.NULL as a type");
        Check.fails(
                () -> Datatype.Struct(new int[] {1}, new int[] {0}, new Datatype[] {MPI.NULL}),
                "type 0 is MPI.NULL, not a type of data",
                "MPI.NULL in a Struct");

        MPI.Errorhandler_set(MPI.ERRORS_RETURN);
        Check.that(MPI.Errorhandler_get() == MPI.ERRORS_RETURN, "MPI.Errorhandler_set sets COMM_WORLD's");
        Check.that(world.Errorhandler_get() == MPI.ERRORS_RETURN, "mpiJava's spelling of the getter");
        MPI.Errorhandler_set(MPI.ERRORS_ARE_FATAL);

        final Datatype pair = Datatype.Contiguous(2, MPI.INT);
        pair.free();
        MPI.SUM.free();
        world.Group().free();
        MPI.EMPTY_STATUS.free();
        final MPIException wrapped = new MPIException(new IllegalStateException("cause"));
        Check.that(wrapped.getCause() instanceof IllegalStateException, "MPIException(Throwable)");
        Check.that(new MPIException().getMessage() == null, "MPIException()");
    }
}
