package mpi;

import org.troupe.mpi.fabric.FabricException;
import org.troupe.mpi.fabric.Message;

/**
 * The point-to-point calls of mpiJava 1.2 on a communicator: sends in every mode, blocking, non-blocking and
 * persistent, receives, probes and the combined send-receive. Package-private: its public methods are called on
 * {@link Comm} (which inherits them) from any package.
 *
 * <p>Buffers are Java arrays of one primitive type; offsets and counts are in elements (counts in items of the
 * datatype). Between ranks of one JVM a message is copied once, from the sender's array into the receiver's, when
 * the receive is posted first; a small message sent first is copied once more, so that its send completes at once.
 */
abstract class Messaging extends Transport {
    Messaging(final int context, final int[] members, final int rank) {
        super(context, members, rank);
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
            return statusOf(s.fabric.awaitMessage(s.worldRank, context, source, tag, members));
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
            s.fabric.progress(); // a program that polls for messages sends what it was cleared to send meanwhile
            final Message m = s.fabric.peek(s.worldRank, context, source, tag, members);
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
}
