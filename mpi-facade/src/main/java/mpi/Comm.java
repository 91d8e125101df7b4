package mpi;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.troupe.mpi.fabric.Kind;
import org.troupe.mpi.fabric.Wire;

/**
 * A communicator: a group of ranks and a context of its own, so that its messages never match another
 * communicator's. This class holds what it is (size, rank, group, comparison, topology, freeing) and the packing of
 * data into bytes; its point-to-point calls, in every mode, blocking, non-blocking and persistent, come from
 * {@code Messaging}.
 */
public abstract class Comm extends Messaging {
    /** Null until set: {@link MPI#ERRORS_ARE_FATAL}. */
    private volatile Errhandler errhandler;

    Comm(final int context, final int[] members, final int rank) {
        super(context, members, rank);
    }

    /** A copy with the same members and a context of its own (collective: every member calls it). */
    @Override
    public abstract Object clone();

    /**
     * An intercommunicator between {@code local_comm}'s group and another, disjoint one; called, as in mpiJava and
     * MPJ Express, on the peer communicator, through which {@code local_leader} (a rank of {@code local_comm}) and
     * {@code remote_leader} (the other leader's rank in this communicator) swap their groups with {@code tag}.
     * Collective over both groups.
     */
    public Intercomm Create_intercomm(
            final Comm local_comm, final int local_leader, final int remote_leader, final int tag) throws MPIException {
        if (!(local_comm instanceof Intracomm local)) {
            throw new MPIException("Create_intercomm: the local communicator must be an Intracomm, not "
                    + (local_comm == null ? "null" : local_comm.getClass().getSimpleName())
                    + "; call it on the peer communicator: peer.Create_intercomm(local, local_leader, remote_leader,"
                    + " tag)");
        }
        local.live();
        if (local_leader < 0 || local_leader >= local.members.length) {
            throw new MPIException("Create_intercomm: local_leader " + local_leader + " is not a rank of the local"
                    + " communicator (0 to " + (local.members.length - 1) + ")");
        }
        if (local.rank == local_leader) {
            if (remote_leader < 0 || remote_leader >= members.length) {
                throw new MPIException("Create_intercomm: remote_leader " + remote_leader + " is not a rank of the"
                        + " peer communicator (0 to " + (members.length - 1) + ")");
            }
            if (local.indexOfWorld(members[remote_leader]) >= 0) { // else both leaders would wait for each other
                throw new MPIException("Create_intercomm: remote_leader " + remote_leader + " of the peer"
                        + " communicator is in the local group; the call is made on the peer communicator with the"
                        + " local one as argument, as in mpiJava and MPJ Express:"
                        + " peer.Create_intercomm(local, local_leader, remote_leader, tag)");
            }
        }
        return Intercomm.create(local, this, local_leader, remote_leader, tag);
    }

    /**
     * The value of a predefined attribute: {@link MPI#TAG_UB} (the largest tag, an Integer), {@link MPI#HOST}
     * ({@link MPI#PROC_NULL}: no rank is the host) or {@link MPI#IO} (this rank: every rank may do I/O).
     */
    public Object Attr_get(final int keyval) throws MPIException {
        live();
        if (keyval == MPI.TAG_UB) {
            return Integer.MAX_VALUE;
        }
        if (keyval == MPI.HOST) {
            return MPI.PROC_NULL;
        }
        if (keyval == MPI.IO) {
            return rank;
        }
        throw new MPIException(
                "Attr_get: " + keyval + " is no attribute key; the keys are MPI.TAG_UB, MPI.HOST and" + " MPI.IO");
    }

    /** Whether it is an intercommunicator. */
    public boolean Test_inter() throws MPIException {
        live();
        return this instanceof Intercomm;
    }

    /** Sets what its calls do on an error; in Java they throw under either handler (see {@link Errhandler}). */
    public void Errhandler_set(final Errhandler handler) throws MPIException {
        live();
        if (handler == null) {
            throw new MPIException(
                    "Errhandler_set: the handler is null; use MPI.ERRORS_ARE_FATAL or MPI.ERRORS_RETURN");
        }
        errhandler = handler;
    }

    public Errhandler Errhandler_get() throws MPIException {
        live();
        final Errhandler h = errhandler;
        return h == null ? MPI.ERRORS_ARE_FATAL : h;
    }

    /** {@link #Errhandler_get}, as mpiJava 1.2 spells it. */
    public Errhandler Errorhandler_get() throws MPIException {
        return Errhandler_get();
    }

    public int Size() throws MPIException {
        live();
        return members.length;
    }

    public int Rank() throws MPIException {
        live();
        return rank;
    }

    public Group Group() throws MPIException {
        live();
        return new Group(members.clone());
    }

    /**
     * {@link MPI#IDENT} (the same communicator), {@link MPI#CONGRUENT} (same members and order, another context),
     * {@link MPI#SIMILAR} (same members) or {@link MPI#UNEQUAL}.
     */
    public static int Compare(final Comm comm1, final Comm comm2) throws MPIException {
        if (comm1 == null || comm2 == null) {
            throw new MPIException("Compare: a communicator is null");
        }
        if (comm1.context == comm2.context && Arrays.equals(comm1.members, comm2.members)) {
            return MPI.IDENT;
        }
        final int groups = Group.Compare(new Group(comm1.members), new Group(comm2.members));
        return groups == MPI.IDENT ? MPI.CONGRUENT : groups;
    }

    /** {@link MPI#CART}, {@link MPI#GRAPH}, or {@link MPI#UNDEFINED} for a communicator without a topology. */
    public int Topo_test() throws MPIException {
        live();
        return MPI.UNDEFINED;
    }

    /** Marks it freed: later calls on it fail. */
    public void Free() throws MPIException {
        live();
        freed = true;
    }

    public boolean Is_null() {
        return freed;
    }

    /** Ends the whole job: every rank's pending and later MPI calls fail, and the job's exit status is non-zero. */
    public void Abort(final int errorcode) throws MPIException {
        final MPI.RankState s = MPI.state();
        s.fabric.abortBy(s.worldRank, errorcode);
        throw new MPIException("Abort(" + errorcode + ") called by this rank");
    }
    // --- Packing into bytes ---

    /**
     * Writes {@code incount} items of {@code datatype} from {@code inbuf} into {@code outbuf} from {@code position},
     * as bytes (little-endian) to send as {@link MPI#PACKED}; returns the position after them.
     */
    public int Pack(
            final Object inbuf,
            final int offset,
            final int incount,
            final Datatype datatype,
            final byte[] outbuf,
            final int position)
            throws MPIException {
        MPI.state();
        final int bytes = Pack_size(incount, datatype);
        checkBuffer(inbuf, offset, incount, datatype);
        if (outbuf == null || position < 0 || (long) position + bytes > outbuf.length) {
            throw new MPIException("Pack: " + bytes + " bytes from position " + position + " do not fit in "
                    + (outbuf == null ? "a null buffer" : "a buffer of " + outbuf.length + " bytes"));
        }
        Wire.put(
                datatype.kind,
                datatype.pack(inbuf, offset, incount),
                0,
                incount * datatype.elements,
                ByteBuffer.wrap(outbuf, position, bytes));
        return position + bytes;
    }

    /** Reads {@code outcount} items of {@code datatype} that {@link #Pack} wrote at {@code position}; returns the position after them. */
    public int Unpack(
            final byte[] inbuf,
            final int position,
            final Object outbuf,
            final int offset,
            final int outcount,
            final Datatype datatype)
            throws MPIException {
        MPI.state();
        final int bytes = Pack_size(outcount, datatype);
        checkBuffer(outbuf, offset, outcount, datatype);
        if (inbuf == null || position < 0 || (long) position + bytes > inbuf.length) {
            throw new MPIException("Unpack: " + bytes + " bytes from position " + position + " are not in "
                    + (inbuf == null ? "a null buffer" : "a buffer of " + inbuf.length + " bytes"));
        }
        final int n = outcount * datatype.elements;
        final Object elements = datatype.kind.newArray(n);
        Wire.copyInto(ByteBuffer.wrap(inbuf, position, bytes), datatype.kind, elements, 0, n);
        datatype.unpack(elements, n, outbuf, offset);
        return position + bytes;
    }

    /** Bytes {@link #Pack} writes for {@code incount} items of {@code datatype}. */
    public int Pack_size(final int incount, final Datatype datatype) throws MPIException {
        MPI.checkType(datatype);
        if (datatype.kind == Kind.OBJECT) {
            throw new MPIException("MPI.OBJECT data is not packed into bytes: send it as MPI.OBJECT");
        }
        if (incount < 0) {
            throw new MPIException("Pack_size: count " + incount + " is negative");
        }
        return incount * datatype.elements * datatype.kind.bytes();
    }
}
