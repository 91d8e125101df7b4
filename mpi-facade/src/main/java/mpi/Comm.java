package mpi;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.troupe.mpi.fabric.Fabric;
import org.troupe.mpi.fabric.FabricException;
import org.troupe.mpi.fabric.Kind;
import org.troupe.mpi.fabric.Message;
import org.troupe.mpi.fabric.Operation;
import org.troupe.mpi.fabric.Receive;
import org.troupe.mpi.fabric.Wire;

/**
 * A communicator: a group of ranks and a context of its own, so that its messages never match another
 * communicator's. Point-to-point calls in every mode, blocking, non-blocking and persistent.
 *
 * <p>Buffers are Java arrays of one primitive type; offsets and counts are in elements (counts in items of the
 * datatype). Between ranks of one JVM a message is copied once, from the sender's array into the receiver's, when
 * the receive is posted first; a small message sent first is copied once more, so that its send completes at once.
 */
public class Comm {
    /** Messages up to this size are sent eagerly (the send completes before a receive takes them). */
    static final int EAGER_BYTES = 16 * 1024;

    enum Mode {
        STANDARD,
        BUFFERED,
        SYNCHRONOUS,
        READY
    }

    /** Point-to-point context; {@code context + 1} carries the collectives. */
    final int context;
    /** World ranks of the members, by rank in this communicator. */
    final int[] members;

    final int rank;
    private volatile boolean freed;

    Comm(final int context, final int[] members, final int rank) {
        this.context = context;
        this.members = members;
        this.rank = rank;
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
        s.fabric.abortJob("rank " + s.worldRank + " called Abort(" + errorcode + ")");
        throw new MPIException("Abort(" + errorcode + ") called by this rank");
    }

    // --- Blocking sends ---

    public void Send(
            final Object buf, final int offset, final int count, final Datatype datatype, final int dest, final int tag)
            throws MPIException {
        start(buf, offset, count, datatype, dest, tag, Mode.STANDARD, context).Wait();
    }

    public void Bsend(
            final Object buf, final int offset, final int count, final Datatype datatype, final int dest, final int tag)
            throws MPIException {
        start(buf, offset, count, datatype, dest, tag, Mode.BUFFERED, context).Wait();
    }

    /** Returns once a receive has taken the message. */
    public void Ssend(
            final Object buf, final int offset, final int count, final Datatype datatype, final int dest, final int tag)
            throws MPIException {
        start(buf, offset, count, datatype, dest, tag, Mode.SYNCHRONOUS, context)
                .Wait();
    }

    public void Rsend(
            final Object buf, final int offset, final int count, final Datatype datatype, final int dest, final int tag)
            throws MPIException {
        start(buf, offset, count, datatype, dest, tag, Mode.READY, context).Wait();
    }

    // --- Non-blocking sends ---

    public Request Isend(
            final Object buf, final int offset, final int count, final Datatype datatype, final int dest, final int tag)
            throws MPIException {
        return start(buf, offset, count, datatype, dest, tag, Mode.STANDARD, context);
    }

    public Request Ibsend(
            final Object buf, final int offset, final int count, final Datatype datatype, final int dest, final int tag)
            throws MPIException {
        return start(buf, offset, count, datatype, dest, tag, Mode.BUFFERED, context);
    }

    public Request Issend(
            final Object buf, final int offset, final int count, final Datatype datatype, final int dest, final int tag)
            throws MPIException {
        return start(buf, offset, count, datatype, dest, tag, Mode.SYNCHRONOUS, context);
    }

    public Request Irsend(
            final Object buf, final int offset, final int count, final Datatype datatype, final int dest, final int tag)
            throws MPIException {
        return start(buf, offset, count, datatype, dest, tag, Mode.READY, context);
    }

    // --- Receives and probes ---

    public Status Recv(
            final Object buf,
            final int offset,
            final int count,
            final Datatype datatype,
            final int source,
            final int tag)
            throws MPIException {
        return receive(buf, offset, count, datatype, source, tag, context).Wait();
    }

    public Request Irecv(
            final Object buf,
            final int offset,
            final int count,
            final Datatype datatype,
            final int source,
            final int tag)
            throws MPIException {
        return receive(buf, offset, count, datatype, source, tag, context);
    }

    /** Waits until a message that such a receive would take has come, and says what it is (it stays there). */
    public Status Probe(final int source, final int tag) throws MPIException {
        final MPI.RankState s = checkPeer(source, true, "source");
        checkTag(tag, true);
        if (source == MPI.PROC_NULL) {
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, false);
        }
        try {
            return statusOf(s.fabric.awaitMessage(s.worldRank, context, source, tag));
        } catch (FabricException e) {
            throw new MPIException(e.getMessage(), e);
        }
    }

    /** As {@link #Probe}, without waiting: null if no such message has come. */
    public Status Iprobe(final int source, final int tag) throws MPIException {
        final MPI.RankState s = checkPeer(source, true, "source");
        checkTag(tag, true);
        if (source == MPI.PROC_NULL) {
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, false);
        }
        try {
            final Message m = s.fabric.peek(s.worldRank, context, source, tag);
            return m == null ? null : statusOf(m);
        } catch (FabricException e) {
            throw new MPIException(e.getMessage(), e);
        }
    }

    private static Status statusOf(final Message m) {
        return new Status(m.source(), m.tag(), m.count(), false);
    }

    // --- Combined ---

    public Status Sendrecv(
            final Object sendbuf,
            final int sendoffset,
            final int sendcount,
            final Datatype sendtype,
            final int dest,
            final int sendtag,
            final Object recvbuf,
            final int recvoffset,
            final int recvcount,
            final Datatype recvtype,
            final int source,
            final int recvtag)
            throws MPIException {
        // The send's arguments are checked before the receive is posted: a receive left posted by a failed call
        // would take a message meant for a later one.
        checkPeer(dest, false, "dest");
        checkTag(sendtag, false);
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype);
        final Request receive = Irecv(recvbuf, recvoffset, recvcount, recvtype, source, recvtag);
        final Request send;
        try {
            send = Isend(sendbuf, sendoffset, sendcount, sendtype, dest, sendtag);
        } catch (MPIException e) {
            receive.Cancel();
            throw e;
        }
        final Status status = receive.Wait();
        send.Wait();
        return status;
    }

    /** Sends the buffer's contents and receives into the same buffer. */
    public Status Sendrecv_replace(
            final Object buf,
            final int offset,
            final int count,
            final Datatype datatype,
            final int dest,
            final int sendtag,
            final int source,
            final int recvtag)
            throws MPIException {
        checkBuffer(buf, offset, count, datatype);
        final int n = count * datatype.elements;
        final Object packed = datatype.pack(buf, offset, count); // sent from this copy, received over the items
        return Sendrecv(
                packed,
                0,
                n,
                Datatype.elementsOf(datatype.kind),
                dest,
                sendtag,
                buf,
                offset,
                count,
                datatype,
                source,
                recvtag);
    }

    // --- Persistent ---

    public Prequest Send_init(
            final Object buf, final int offset, final int count, final Datatype datatype, final int dest, final int tag)
            throws MPIException {
        return persistentSend(buf, offset, count, datatype, dest, tag, Mode.STANDARD);
    }

    public Prequest Bsend_init(
            final Object buf, final int offset, final int count, final Datatype datatype, final int dest, final int tag)
            throws MPIException {
        return persistentSend(buf, offset, count, datatype, dest, tag, Mode.BUFFERED);
    }

    public Prequest Ssend_init(
            final Object buf, final int offset, final int count, final Datatype datatype, final int dest, final int tag)
            throws MPIException {
        return persistentSend(buf, offset, count, datatype, dest, tag, Mode.SYNCHRONOUS);
    }

    public Prequest Rsend_init(
            final Object buf, final int offset, final int count, final Datatype datatype, final int dest, final int tag)
            throws MPIException {
        return persistentSend(buf, offset, count, datatype, dest, tag, Mode.READY);
    }

    public Prequest Recv_init(
            final Object buf,
            final int offset,
            final int count,
            final Datatype datatype,
            final int source,
            final int tag)
            throws MPIException {
        checkBuffer(buf, offset, count, datatype);
        checkPeer(source, true, "source");
        checkTag(tag, true);
        return new Prequest(() -> receive(buf, offset, count, datatype, source, tag, context));
    }

    private Prequest persistentSend(
            final Object buf,
            final int offset,
            final int count,
            final Datatype datatype,
            final int dest,
            final int tag,
            final Mode mode)
            throws MPIException {
        checkBuffer(buf, offset, count, datatype);
        checkPeer(dest, false, "dest");
        checkTag(tag, false);
        return new Prequest(() -> start(buf, offset, count, datatype, dest, tag, mode, context));
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

    // --- The engine's side ---

    /** Starts a send on {@code ctx} (this communicator's point-to-point or collective context). */
    Request start(
            final Object buf,
            final int offset,
            final int count,
            final Datatype datatype,
            final int dest,
            final int tag,
            final Mode mode,
            final int ctx)
            throws MPIException {
        final MPI.RankState s = checkPeer(dest, false, "dest");
        checkTag(tag, false);
        checkBuffer(buf, offset, count, datatype);
        if (dest == MPI.PROC_NULL) {
            return Request.completed(new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, false));
        }
        final Kind kind = datatype.kind;
        final int n = count * datatype.elements;
        final long elementBytes = (long) n * kind.bytes();
        // A derived type's elements travel packed: the copy is the message's own, as an eager message's is.
        // Objects travel encoded, by the sender's class loader.
        final boolean packed = !datatype.isContiguous() || kind == Kind.OBJECT;
        Object data = packed ? datatype.pack(buf, offset, count) : buf;
        if (kind == Kind.OBJECT) {
            data = ObjectCodec.encode((Object[]) data);
        }
        final long bytes = kind == Kind.OBJECT ? ((byte[]) data).length : elementBytes; // as they travel
        final Operation send = new Operation();
        final int world = members[dest];
        final boolean eager;
        Runnable release = null;
        switch (mode) {
            case BUFFERED -> {
                final long room = bytes + MPI.BSEND_OVERHEAD;
                final int generation = s.reserve(room);
                release = () -> s.release(room, generation);
                eager = true;
            }
            case SYNCHRONOUS -> eager = false;
            default -> eager = bytes <= EAGER_BYTES && s.fabric.takeEagerCredit(s.worldRank, world, bytes);
        }
        final Message m = new Message(ctx, rank, tag, kind, data, packed ? 0 : offset, n, send, release);
        if (eager && mode != Mode.BUFFERED) { // its credit comes back when a receive takes it (by frame from a JVM)
            m.onConsumed(() -> s.fabric.returnEagerCredit(s.worldRank, world, Fabric.eagerCost(bytes)));
        }
        try {
            return Request.ofSend(s.fabric, send, s.fabric.deliver(world, m, eager), world);
        } catch (FabricException e) {
            if (release != null) {
                release.run();
            }
            if (eager && mode != Mode.BUFFERED) {
                s.fabric.returnEagerCredit(s.worldRank, world, Fabric.eagerCost(bytes));
            }
            throw new MPIException(e.getMessage(), e);
        }
    }

    /** Posts a receive on {@code ctx}. */
    Request receive(
            final Object buf,
            final int offset,
            final int count,
            final Datatype datatype,
            final int source,
            final int tag,
            final int ctx)
            throws MPIException {
        final MPI.RankState s = checkPeer(source, true, "source");
        checkTag(tag, true);
        checkBuffer(buf, offset, count, datatype);
        if (source == MPI.PROC_NULL) {
            return Request.completed(new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, false));
        }
        final int n = count * datatype.elements;
        final boolean packed = !datatype.isContiguous() || datatype.kind == Kind.OBJECT;
        final Object into = packed ? datatype.kind.newArray(n) : buf;
        final Receive r = new Receive(ctx, source, tag, datatype.kind, into, packed ? 0 : offset, n);
        try {
            s.fabric.post(s.worldRank, r);
        } catch (FabricException e) {
            throw new MPIException(e.getMessage(), e);
        }
        final Request request = Request.ofReceive(s.fabric, r, s.worldRank);
        if (packed) {
            request.unpackInto(datatype, datatype.kind == Kind.OBJECT ? r : into, buf, offset);
        }
        return request;
    }

    // --- Checks ---

    private void live() throws MPIException {
        MPI.state();
        if (freed) {
            throw new MPIException("this communicator has been freed");
        }
    }

    /** Checks a peer rank; returns this rank's state. */
    MPI.RankState checkPeer(final int peer, final boolean wildcardAllowed, final String what) throws MPIException {
        final MPI.RankState s = MPI.state();
        if (freed) {
            throw new MPIException("this communicator has been freed");
        }
        if (peer == MPI.PROC_NULL || (wildcardAllowed && peer == MPI.ANY_SOURCE)) {
            return s;
        }
        if (peer < 0 || peer >= members.length) {
            throw new MPIException(what + " rank " + peer + " is not in this communicator of " + members.length
                    + " ranks (0 to " + (members.length - 1) + ")"
                    + (wildcardAllowed ? ", MPI.ANY_SOURCE or MPI.PROC_NULL" : " or MPI.PROC_NULL"));
        }
        return s;
    }

    static void checkTag(final int tag, final boolean wildcardAllowed) throws MPIException {
        if (tag < 0 && !(wildcardAllowed && tag == MPI.ANY_TAG)) {
            throw new MPIException("tag " + tag + " is negative" + (wildcardAllowed ? " (and not MPI.ANY_TAG)" : "")
                    + ": tags go from 0 to MPI.TAG_UB");
        }
    }

    static void checkBuffer(final Object buf, final int offset, final int count, final Datatype datatype)
            throws MPIException {
        MPI.checkType(datatype);
        if (count < 0) {
            throw new MPIException("count " + count + " is negative");
        }
        if (buf == null) {
            throw new MPIException("the buffer is null");
        }
        if (datatype.kind == Kind.OBJECT ? !(buf instanceof Object[]) : buf.getClass() != datatype.kind.arrayType()) {
            throw new MPIException("a buffer of " + datatype + " must be a "
                    + datatype.kind.arrayType().getSimpleName() + ", not a "
                    + buf.getClass().getSimpleName());
        }
        final long[] span = datatype.span(offset, count);
        final int length = Array.getLength(buf);
        if (offset < 0 || span[0] < 0 || span[1] > length) {
            throw new MPIException(count + " items of " + datatype + " from offset " + offset + " do not fit in"
                    + " a buffer of " + length + " elements");
        }
    }

    int worldRankOf(final int commRank) {
        return members[commRank];
    }
}
