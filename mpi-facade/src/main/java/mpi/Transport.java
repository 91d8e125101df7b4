package mpi;

import java.lang.reflect.Array;
import org.troupe.mpi.fabric.BlockedCall;
import org.troupe.mpi.fabric.Fabric;
import org.troupe.mpi.fabric.FabricException;
import org.troupe.mpi.fabric.Kind;
import org.troupe.mpi.fabric.Message;
import org.troupe.mpi.fabric.Operation;
import org.troupe.mpi.fabric.Receive;

/**
 * What a communicator is made of, and the engine under its calls: its members, its rank and its context, the
 * posting of one send or receive on a context (its own point-to-point one, or the collectives' {@code context + 1}),
 * and the argument checks every call makes. Package-private: {@link Comm} and its subclasses are the API.
 */
abstract class Transport {
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
    volatile boolean freed;

    Transport(final int context, final int[] members, final int rank) {
        this.context = context;
        this.members = members;
        this.rank = rank;
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
            try {
                data = ObjectCodec.encode((Object[]) data);
            } catch (MPIException e) { // its receiver would wait for ever, even if the program went on
                s.fabric.abortJob("rank " + s.worldRank + " could not send MPI.OBJECT data: " + e.getMessage());
                throw e;
            }
        }
        final long bytes = kind == Kind.OBJECT ? ((byte[]) data).length : elementBytes; // as they travel
        final int world = members[dest];
        final Operation send = new Operation().describe(BlockedCall.Call.SEND, s.worldRank, world, ctx, tag, n);
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
            return Request.ofSend(s.fabric, send, s.fabric.deliver(s.worldRank, world, m, eager), world);
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
        final Receive r = new Receive(ctx, source, tag, datatype.kind, into, packed ? 0 : offset, n).from(members);
        r.operation()
                .describe(
                        BlockedCall.Call.RECV,
                        s.worldRank,
                        source == MPI.ANY_SOURCE ? MPI.ANY_SOURCE : members[source],
                        ctx,
                        tag,
                        n);
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

    void live() throws MPIException {
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
                    + ": tags go from 0 to " + Integer.MAX_VALUE + " (the attribute MPI.TAG_UB)");
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
        if (datatype.elements == 0
                ? !buf.getClass().isArray()
                : datatype.kind == Kind.OBJECT
                        ? !(buf instanceof Object[])
                        : buf.getClass() != datatype.kind.arrayType()) {
            throw new MPIException("a buffer of " + datatype + " must be "
                    + (datatype.elements == 0
                            ? "an array"
                            : article(datatype.kind.arrayType().getSimpleName()))
                    + ", not " + article(buf.getClass().getSimpleName()));
        }
        final long[] span = datatype.span(offset, count);
        final int length = Array.getLength(buf);
        if (offset < 0 || span[0] < 0 || span[1] > length) {
            throw new MPIException(count + " items of " + datatype + " from offset " + offset + " do not fit in"
                    + " a buffer of " + length + " elements");
        }
    }

    /** {@code "a double[]"}, {@code "an int[]"}. */
    private static String article(final String type) {
        return ("aeiouAEIOU".indexOf(type.charAt(0)) >= 0 ? "an " : "a ") + type;
    }

    int worldRankOf(final int commRank) {
        return members[commRank];
    }
}
