package mpi;

import static mpi.CollectiveArgs.checkCounts;
import static mpi.CollectiveArgs.checkReduction;
import static mpi.CollectiveArgs.checkRoot;
import static org.troupe.mpi.fabric.coll.Blocks.offsets;

import org.troupe.mpi.fabric.coll.BinomialReduce;
import org.troupe.mpi.fabric.coll.DisseminationBarrier;
import org.troupe.mpi.fabric.coll.LinearReduce;
import org.troupe.mpi.fabric.coll.LinearScan;
import org.troupe.mpi.fabric.coll.RecursiveDoublingAllreduce;
import org.troupe.mpi.fabric.coll.RingAllreduce;
import org.troupe.mpi.fabric.coll.Scratch;
import org.troupe.mpi.fabric.coll.Tags;

/**
 * The collectives that combine the members' data with an {@link Op} (reduce, all-reduce, reduce-scatter, scan), and
 * the barrier, which combines no data but waits for every member as they do. Each checks its arguments, takes its
 * tag, chooses an algorithm by the operation and the size of its data, and runs it. Package-private: its public
 * methods are called on {@link Intracomm} (which inherits them) from any package.
 */
abstract class Reductions extends DataMovement {
    private final Scratch scratch = new Scratch();

    Reductions(final int context, final int[] members, final int rank) {
        super(context, members, rank);
    }

    /** Returns once every member has called it (dissemination: log2(size) rounds). */
    public void Barrier() throws MPIException {
        DisseminationBarrier.run(channel, MPI.BYTE, tags.next(Tags.BARRIER));
    }

    /**
     * Combines everyone's {@code sendbuf} with {@code op} into {@code root}'s {@code recvbuf}, in rank order
     * ({@code x0 op x1 op ...}): a binomial tree for a commuting operation, the ranks in turn at the root otherwise.
     */
    public void Reduce(
            final Object sendbuf,
            final int sendoffset,
            final Object recvbuf,
            final int recvoffset,
            final int count,
            final Datatype datatype,
            final Op op,
            final int root)
            throws MPIException {
        final int tag = tags.next(Tags.REDUCE);
        checkRoot(this, root);
        checkReduction(op, datatype, "Reduce", sendbuf, sendoffset, count);
        if (rank == root) {
            checkBuffer(recvbuf, recvoffset, count, datatype);
        }
        if (op.Is_commute()) {
            BinomialReduce.run(
                    channel,
                    scratch,
                    sendbuf,
                    sendoffset,
                    recvbuf,
                    recvoffset,
                    count,
                    datatype,
                    CollectiveChannel.operator(op, datatype),
                    root,
                    tag);
        } else {
            LinearReduce.run(
                    channel,
                    sendbuf,
                    sendoffset,
                    recvbuf,
                    recvoffset,
                    count,
                    datatype,
                    CollectiveChannel.operator(op, datatype),
                    root,
                    tag);
        }
    }

    /**
     * {@link #Reduce} whose result every member gets: a ring for a large buffer and a commuting operation, recursive
     * doubling on a power of two ranks, else a {@link #Reduce} to rank 0 and a {@link #Bcast}.
     */
    public void Allreduce(
            final Object sendbuf,
            final int sendoffset,
            final Object recvbuf,
            final int recvoffset,
            final int count,
            final Datatype datatype,
            final Op op)
            throws MPIException {
        final int tag = tags.next(Tags.REDUCE);
        checkReduction(op, datatype, "Allreduce", sendbuf, sendoffset, count);
        checkBuffer(recvbuf, recvoffset, count, datatype);
        final int size = members.length;
        final int n = count * datatype.elements;
        if (RingAllreduce.suits(size, count, op.Is_commute(), (long) n * datatype.kind.bytes())) {
            RingAllreduce.run(
                    channel,
                    scratch,
                    sendbuf,
                    sendoffset,
                    recvbuf,
                    recvoffset,
                    count,
                    datatype,
                    CollectiveChannel.operator(op, datatype),
                    tag);
        } else if (RecursiveDoublingAllreduce.suits(size, op.Is_commute())) {
            RecursiveDoublingAllreduce.run(
                    channel,
                    scratch,
                    sendbuf,
                    sendoffset,
                    recvbuf,
                    recvoffset,
                    count,
                    datatype,
                    CollectiveChannel.operator(op, datatype),
                    tag);
        } else {
            Reduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, 0);
            Bcast(recvbuf, recvoffset, count, datatype, 0);
        }
    }

    /** Combines {@code sendbuf} as {@link #Reduce}, then hands member {@code i} its {@code recvcounts[i]} items. */
    public void Reduce_scatter(
            final Object sendbuf,
            final int sendoffset,
            final Object recvbuf,
            final int recvoffset,
            final int[] recvcounts,
            final Datatype datatype,
            final Op op)
            throws MPIException {
        checkCounts(this, recvcounts, "recvcounts");
        final int[] displs = offsets(recvcounts); // where each block starts, then where the last ends
        final int total = displs[recvcounts.length];
        final Object reduced = datatype.kind.newArray(total * datatype.elements);
        Reduce(sendbuf, sendoffset, reduced, 0, total, datatype, op, 0);
        Scatterv(reduced, 0, recvcounts, displs, datatype, recvbuf, recvoffset, recvcounts[rank], datatype, 0);
    }

    /** Inclusive prefix reduction: member {@code i} gets {@code x0 op ... op xi}. */
    public void Scan(
            final Object sendbuf,
            final int sendoffset,
            final Object recvbuf,
            final int recvoffset,
            final int count,
            final Datatype datatype,
            final Op op)
            throws MPIException {
        final int tag = tags.next(Tags.SCAN);
        checkReduction(op, datatype, "Scan", sendbuf, sendoffset, count);
        checkBuffer(recvbuf, recvoffset, count, datatype);
        LinearScan.run(
                channel,
                sendbuf,
                sendoffset,
                recvbuf,
                recvoffset,
                count,
                datatype,
                CollectiveChannel.operator(op, datatype),
                tag);
    }
}
