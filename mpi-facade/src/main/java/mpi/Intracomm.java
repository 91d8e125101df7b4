package mpi;

import static mpi.CollectiveArgs.checkBlocks;
import static mpi.CollectiveArgs.checkCounts;
import static mpi.CollectiveArgs.checkExchange;
import static mpi.CollectiveArgs.checkReduction;
import static mpi.CollectiveArgs.checkRoot;
import static org.troupe.mpi.fabric.coll.Blocks.displacements;
import static org.troupe.mpi.fabric.coll.Blocks.offsets;
import static org.troupe.mpi.fabric.coll.Blocks.uniform;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.troupe.mpi.fabric.FabricException;
import org.troupe.mpi.fabric.coll.BinomialBroadcast;
import org.troupe.mpi.fabric.coll.BinomialReduce;
import org.troupe.mpi.fabric.coll.DisseminationBarrier;
import org.troupe.mpi.fabric.coll.LinearAllgather;
import org.troupe.mpi.fabric.coll.LinearAlltoall;
import org.troupe.mpi.fabric.coll.LinearGather;
import org.troupe.mpi.fabric.coll.LinearReduce;
import org.troupe.mpi.fabric.coll.LinearScan;
import org.troupe.mpi.fabric.coll.LinearScatter;
import org.troupe.mpi.fabric.coll.RecursiveDoublingAllreduce;
import org.troupe.mpi.fabric.coll.RingAllreduce;
import org.troupe.mpi.fabric.coll.ScatterRingBroadcast;
import org.troupe.mpi.fabric.coll.Scratch;
import org.troupe.mpi.fabric.coll.Tags;

/**
 * A communicator within one group: the collectives, and the making of new communicators from it. Collectives run
 * on a context of their own, so they never match a point-to-point message of the program. Each collective checks
 * its arguments, chooses an algorithm by the size of its data, and runs it (the algorithms are in
 * {@code org.troupe.mpi.fabric.coll}, one per class).
 */
public class Intracomm extends Comm {
    private final Tags tags = new Tags();
    private final CollectiveChannel channel = new CollectiveChannel(this);
    private final Scratch scratch = new Scratch();

    Intracomm(final int context, final int[] members, final int rank) {
        super(context, members, rank);
    }

    /** A copy with the same members and a context of its own (collective: every member calls it). */
    @Override
    public Object clone() {
        try {
            return new Intracomm(agreeOnContexts(1), members.clone(), rank);
        } catch (MPIException e) {
            throw new IllegalStateException("clone (the communicator's dup) failed: " + e.getMessage(), e);
        }
    }

    /**
     * Splits it by {@code color}: the members of one color form a communicator, ranked by {@code key} (then by
     * rank here). A rank with color {@link MPI#UNDEFINED} gets null. Collective.
     */
    public Intracomm Split(final int color, final int key) throws MPIException {
        if (color < 0 && color != MPI.UNDEFINED) {
            throw new MPIException("Split: color " + color + " is negative (and not MPI.UNDEFINED)");
        }
        final int size = members.length;
        final int[] mine = {color, key};
        final int[] all = new int[2 * size];
        Allgather(mine, 0, 2, MPI.INT, all, 0, 2, MPI.INT);
        final List<Integer> colors = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (all[2 * r] != MPI.UNDEFINED && !colors.contains(all[2 * r])) {
                colors.add(all[2 * r]);
            }
        }
        colors.sort(null);
        final int base = agreeOnContexts(Math.max(1, colors.size()));
        if (color == MPI.UNDEFINED) {
            return null;
        }
        final List<Integer> same = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (all[2 * r] == color) {
                same.add(r);
            }
        }
        same.sort(Comparator.<Integer>comparingInt(r -> all[2 * r + 1]).thenComparingInt(r -> r));
        final int[] newMembers = new int[same.size()];
        int newRank = -1;
        for (int i = 0; i < newMembers.length; i++) {
            newMembers[i] = members[same.get(i)];
            if (same.get(i) == rank) {
                newRank = i;
            }
        }
        return new Intracomm(base + 2 * colors.indexOf(color), newMembers, newRank);
    }

    /** A communicator of the members of {@code group} (a subset of this one's); null for the others. Collective. */
    public Intracomm Create(final Group group) throws MPIException {
        for (final int w : group.members) {
            if (indexOfWorld(w) < 0) {
                throw new MPIException("Create: the group has a rank that is not in this communicator");
            }
        }
        final int ctx = agreeOnContexts(1);
        final int me = members[rank];
        for (int i = 0; i < group.members.length; i++) {
            if (group.members[i] == me) {
                return new Intracomm(ctx, group.members.clone(), i);
            }
        }
        return null;
    }

    int indexOfWorld(final int world) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == world) {
                return i;
            }
        }
        return -1;
    }

    /** Rank 0 takes {@code n} fresh context pairs from the job and tells the others the first. */
    int agreeOnContexts(final int n) throws MPIException {
        final int[] base = new int[1];
        if (rank == 0) {
            try {
                base[0] = MPI.state().fabric.newContexts(n);
            } catch (FabricException e) {
                base[0] = -1; // the others learn it below, and fail too
            }
        }
        Bcast(base, 0, 1, MPI.INT, 0);
        if (base[0] < 0) {
            throw new MPIException("no communicator can be made: this job's rank 0 of the communicator has made all"
                    + " it may make (freed ones are not reused)");
        }
        return base[0];
    }

    /**
     * An intercommunicator between this group and another, disjoint one. {@code local_leader} (a rank here) and
     * {@code remote_leader} (the other leader's rank in {@code peer_comm}) swap their groups over {@code peer_comm}
     * with {@code tag}. Collective over both groups.
     */
    public Intercomm Create_intercomm(
            final Comm peer_comm, final int local_leader, final int remote_leader, final int tag) throws MPIException {
        checkRoot(this, local_leader);
        return Intercomm.create(this, peer_comm, local_leader, remote_leader, tag);
    }

    /**
     * A Cartesian grid of the first {@code dims[0] * dims[1] * ...} ranks, in row-major order; the other ranks get
     * null. Ranks are not reordered. Collective.
     */
    public Cartcomm Create_cart(final int[] dims, final boolean[] periods, final boolean reorder) throws MPIException {
        return Cartcomm.create(this, dims, periods);
    }

    /**
     * A graph of {@code index.length} ranks (the first ones): node i's neighbours are {@code edges[index[i-1]]} to
     * {@code edges[index[i]-1]}. The other ranks get null. Collective.
     */
    public Graphcomm Create_graph(final int[] index, final int[] edges, final boolean reorder) throws MPIException {
        return Graphcomm.create(this, index, edges);
    }

    // --- Collectives: each checks its arguments, takes its tag, and runs its algorithm ---

    /** Returns once every member has called it (dissemination: log2(size) rounds). */
    public void Barrier() throws MPIException {
        DisseminationBarrier.run(channel, MPI.BYTE, tags.next(Tags.BARRIER));
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
