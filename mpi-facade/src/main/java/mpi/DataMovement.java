package mpi;

import static mpi.CollectiveArgs.checkBlocks;
import static mpi.CollectiveArgs.checkExchange;
import static mpi.CollectiveArgs.checkRoot;
import static org.troupe.mpi.fabric.coll.Blocks.displacements;
import static org.troupe.mpi.fabric.coll.Blocks.uniform;

import org.troupe.mpi.fabric.coll.BinomialBroadcast;
import org.troupe.mpi.fabric.coll.LinearAllgather;
import org.troupe.mpi.fabric.coll.LinearAlltoall;
import org.troupe.mpi.fabric.coll.LinearGather;
import org.troupe.mpi.fabric.coll.LinearScatter;
import org.troupe.mpi.fabric.coll.ScatterRingBroadcast;
import org.troupe.mpi.fabric.coll.Tags;

/**
 * The collectives that move data without combining it: broadcast, gather, scatter, all-gather and all-to-all, with
 * their {@code v} forms. Collectives run on a context of their own ({@link CollectiveChannel}), so they never match
 * a point-to-point message of the program. Each checks its arguments, takes its tag, chooses an algorithm by the
 * size of its data, and runs it (the algorithms are in {@code org.troupe.mpi.fabric.coll}, one per class).
 * Package-private: its public methods are called on {@link Intracomm} (which inherits them) from any package.
 */
abstract class DataMovement extends Comm {
    /** The next tag of each collective: every member calls the collectives in the same order, so they agree. */
    final Tags tags = new Tags();

    final CollectiveChannel channel = new CollectiveChannel(this);

    DataMovement(final int context, final int[] members, final int rank) {
        super(context, members, rank);
    }

    /**
     * Copies {@code root}'s buffer into everyone's: a binomial tree; for a large buffer and more than two ranks, its
     * blocks scattered down the tree, then passed round a ring, so that the root sends it about once rather than
     * {@code log2(size)} times.
     */
    public void Bcast(final Object buf, final int offset, final int count, final Datatype datatype, final int root)
            throws MPIException {
        final int tag = tags.next(Tags.BCAST);
        checkRoot(this, root);
        checkBuffer(buf, offset, count, datatype);
        if (ScatterRingBroadcast.suits(
                members.length,
                count,
                datatype.isContiguous(),
                (long) count * datatype.elements * datatype.kind.bytes())) {
            ScatterRingBroadcast.run(channel, buf, offset, count, datatype, root, tag);
        } else {
            BinomialBroadcast.run(channel, buf, offset, count, datatype, root, tag);
        }
    }

    /** Everyone's {@code sendcount} items, one block per rank in rank order, into {@code root}'s {@code recvbuf}. */
    public void Gather(
            final Object sendbuf,
            final int sendoffset,
            final int sendcount,
            final Datatype sendtype,
            final Object recvbuf,
            final int recvoffset,
            final int recvcount,
            final Datatype recvtype,
            final int root)
            throws MPIException {
        Gatherv(
                sendbuf,
                sendoffset,
                sendcount,
                sendtype,
                recvbuf,
                recvoffset,
                uniform(members.length, recvcount),
                displacements(members.length, recvcount),
                recvtype,
                root);
    }

    /** As {@link #Gather}, rank {@code i}'s {@code recvcounts[i]} items going to {@code displs[i]} (in items). */
    public void Gatherv(
            final Object sendbuf,
            final int sendoffset,
            final int sendcount,
            final Datatype sendtype,
            final Object recvbuf,
            final int recvoffset,
            final int[] recvcounts,
            final int[] displs,
            final Datatype recvtype,
            final int root)
            throws MPIException {
        final int tag = tags.next(Tags.GATHER);
        checkRoot(this, root);
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype);
        if (rank == root) { // all checked before any is posted: a failed call posts none
            checkBlocks(this, recvbuf, recvoffset, recvcounts, "recvcounts", displs, "displs", recvtype);
        }
        LinearGather.run(
                channel,
                sendbuf,
                sendoffset,
                sendcount,
                sendtype,
                recvbuf,
                recvoffset,
                recvcounts,
                displs,
                recvtype,
                root,
                tag);
    }

    /** {@code root}'s {@code sendbuf}, one block of {@code sendcount} items per rank in rank order, to each rank. */
    public void Scatter(
            final Object sendbuf,
            final int sendoffset,
            final int sendcount,
            final Datatype sendtype,
            final Object recvbuf,
            final int recvoffset,
            final int recvcount,
            final Datatype recvtype,
            final int root)
            throws MPIException {
        Scatterv(
                sendbuf,
                sendoffset,
                uniform(members.length, sendcount),
                displacements(members.length, sendcount),
                sendtype,
                recvbuf,
                recvoffset,
                recvcount,
                recvtype,
                root);
    }

    public void Scatterv(
            final Object sendbuf,
            final int sendoffset,
            final int[] sendcounts,
            final int[] displs,
            final Datatype sendtype,
            final Object recvbuf,
            final int recvoffset,
            final int recvcount,
            final Datatype recvtype,
            final int root)
            throws MPIException {
        final int tag = tags.next(Tags.SCATTER);
        checkRoot(this, root);
        checkBuffer(recvbuf, recvoffset, recvcount, recvtype);
        if (rank == root) {
            checkBlocks(this, sendbuf, sendoffset, sendcounts, "sendcounts", displs, "displs", sendtype);
        }
        LinearScatter.run(
                channel,
                sendbuf,
                sendoffset,
                sendcounts,
                displs,
                sendtype,
                recvbuf,
                recvoffset,
                recvcount,
                recvtype,
                root,
                tag);
    }

    /** {@link #Gather} whose result every member gets. */
    public void Allgather(
            final Object sendbuf,
            final int sendoffset,
            final int sendcount,
            final Datatype sendtype,
            final Object recvbuf,
            final int recvoffset,
            final int recvcount,
            final Datatype recvtype)
            throws MPIException {
        Allgatherv(
                sendbuf,
                sendoffset,
                sendcount,
                sendtype,
                recvbuf,
                recvoffset,
                uniform(members.length, recvcount),
                displacements(members.length, recvcount),
                recvtype);
    }

    public void Allgatherv(
            final Object sendbuf,
            final int sendoffset,
            final int sendcount,
            final Datatype sendtype,
            final Object recvbuf,
            final int recvoffset,
            final int[] recvcounts,
            final int[] displs,
            final Datatype recvtype)
            throws MPIException {
        final int tag = tags.next(Tags.ALLGATHER);
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype);
        checkBlocks(this, recvbuf, recvoffset, recvcounts, "recvcounts", displs, "displs", recvtype);
        LinearAllgather.run(
                channel,
                sendbuf,
                sendoffset,
                sendcount,
                sendtype,
                recvbuf,
                recvoffset,
                recvcounts,
                displs,
                recvtype,
                tag);
    }

    /**
     * Block {@code j} of each rank's {@code sendbuf} goes to rank {@code j}, into block {@code i} of its
     * {@code recvbuf}.
     */
    public void Alltoall(
            final Object sendbuf,
            final int sendoffset,
            final int sendcount,
            final Datatype sendtype,
            final Object recvbuf,
            final int recvoffset,
            final int recvcount,
            final Datatype recvtype)
            throws MPIException {
        final int size = members.length;
        Alltoallv(
                sendbuf,
                sendoffset,
                uniform(size, sendcount),
                displacements(size, sendcount),
                sendtype,
                recvbuf,
                recvoffset,
                uniform(size, recvcount),
                displacements(size, recvcount),
                recvtype);
    }

    public void Alltoallv(
            final Object sendbuf,
            final int sendoffset,
            final int[] sendcounts,
            final int[] sdispls,
            final Datatype sendtype,
            final Object recvbuf,
            final int recvoffset,
            final int[] recvcounts,
            final int[] rdispls,
            final Datatype recvtype)
            throws MPIException {
        final int tag = tags.next(Tags.ALLTOALL);
        checkExchange(
                this,
                sendbuf,
                sendoffset,
                sendcounts,
                sdispls,
                sendtype,
                recvbuf,
                recvoffset,
                recvcounts,
                rdispls,
                recvtype);
        LinearAlltoall.run(
                channel,
                sendbuf,
                sendoffset,
                sendcounts,
                sdispls,
                sendtype,
                recvbuf,
                recvoffset,
                recvcounts,
                rdispls,
                recvtype,
                tag);
    }
}
