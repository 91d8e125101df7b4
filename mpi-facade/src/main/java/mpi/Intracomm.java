package mpi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.troupe.mpi.fabric.Kind;

/**
 * A communicator within one group: the collectives, and the making of new communicators from it. Collectives run
 * on a context of their own, so they never match a point-to-point message of the program. Trees (binomial
 * broadcast and reduction) keep them at {@code log2(size)} message steps where the data allows.
 */
public class Intracomm extends Comm {
    private static final int BARRIER = 1;
    private static final int BCAST = 2;
    private static final int REDUCE = 3;
    private static final int GATHER = 4;
    private static final int SCATTER = 5;
    private static final int ALLGATHER = 6;
    private static final int ALLTOALL = 7;
    private static final int SCAN = 8;
    /** From this size on, a commuting Allreduce and a Bcast to more than two ranks run as rings. */
    private static final long RING_BYTES = 64 * 1024;

    /**
     * Collectives called so far: every rank counts the same ones in the same order (MPI requires it), so that each
     * collective's messages carry a tag of their own ({@code count << 4 | kind}) and a message left over by one that
     * failed on some rank (a root that refused its arguments) never matches a later one.
     */
    private int collectives;

    private int nextTag(final int kind) {
        return ((collectives++ & 0x7FF_FFFF) << 4) | kind;
    }

    /** A reduction's buffer for what partners send, kept between calls: a large one is costly to allocate each time. */
    private Object scratch;

    Intracomm(final int context, final int[] members, final int rank) {
        super(context, members, rank);
    }

    /**
     * A buffer of at least {@code n} elements of {@code kind}. Collectives on one communicator run one at a time (MPI
     * requires every rank to call them in the same order), so one buffer serves them all.
     */
    private Object scratch(final Kind kind, final int n) {
        final Object s = scratch;
        if (s != null && s.getClass() == kind.arrayType() && java.lang.reflect.Array.getLength(s) >= n) {
            return s;
        }
        final Object fresh = kind.newArray(n);
        scratch = fresh;
        return fresh;
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
            } catch (org.troupe.mpi.fabric.FabricException e) {
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
    public Intercomm Create_intercomm(final Comm peer_comm, final int local_leader, final int remote_leader,
                                      final int tag) throws MPIException {
        checkRoot(local_leader);
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

    // --- Collectives ---

    /** Returns once every member has called it (dissemination: log2(size) rounds). */
    public void Barrier() throws MPIException {
        final int tag = nextTag(BARRIER);
        final int size = members.length;
        final byte[] none = new byte[0];
        for (int k = 1; k < size; k <<= 1) {
            final Request in = crecv(none, 0, 0, MPI.BYTE, (rank - k + size) % size, tag);
            csend(none, 0, 0, MPI.BYTE, (rank + k) % size, tag).Wait();
            in.Wait();
        }
    }

    /**
     * Copies {@code root}'s buffer into everyone's: a binomial tree; for a large buffer and more than two ranks, its
     * blocks scattered down the tree, then passed round a ring, so that the root sends it about once rather than
     * {@code log2(size)} times.
     */
    public void Bcast(final Object buf, final int offset, final int count, final Datatype datatype, final int root)
        throws MPIException {
        final int tag = nextTag(BCAST);
        checkRoot(root);
        checkBuffer(buf, offset, count, datatype);
        final int size = members.length;
        final int v = (rank - root + size) % size;
        if (size > 2 && count >= size && datatype.isContiguous()
            && (long) count * datatype.elements * datatype.kind.bytes() >= RING_BYTES) {
            scatterThenRing(buf, offset, count, datatype, v, tag);
            return;
        }
        int mask = 1;
        while (mask < size) {
            if ((v & mask) != 0) {
                crecv(buf, offset, count, datatype, (v - mask + root) % size, tag).Wait();
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while (mask > 0) {
            if (v + mask < size) {
                csend(buf, offset, count, datatype, (v + mask + root) % size, tag).Wait();
            }
            mask >>= 1;
        }
    }

    /**
     * Combines everyone's {@code sendbuf} with {@code op} into {@code root}'s {@code recvbuf}, in rank order
     * ({@code x0 op x1 op ...}): a binomial tree for a commuting operation, the ranks in turn at the root otherwise.
     */
    public void Reduce(final Object sendbuf, final int sendoffset, final Object recvbuf, final int recvoffset,
                       final int count, final Datatype datatype, final Op op, final int root) throws MPIException {
        final int tag = nextTag(REDUCE);
        checkRoot(root);
        checkOp(op, datatype);
        checkContiguous(datatype, "Reduce");
        checkBuffer(sendbuf, sendoffset, count, datatype);
        if (rank == root) {
            checkBuffer(recvbuf, recvoffset, count, datatype);
        }
        final int size = members.length;
        final int n = count * datatype.elements;
        final Kind kind = datatype.kind;
        final Object acc = kind.copyOf(sendbuf, sendoffset, n);
        if (!op.Is_commute()) {
            if (rank != root) {
                csend(acc, 0, count, datatype, root, tag).Wait();
                return;
            }
            // acc = x(size-1), then x(i) op acc for i going down: the result is x0 op x1 op ... in rank order.
            final Object[] parts = new Object[size];
            final Request[] in = new Request[size];
            for (int r = 0; r < size; r++) {
                if (r != root) {
                    parts[r] = kind.newArray(n);
                    in[r] = crecv(parts[r], 0, count, datatype, r, tag);
                } else {
                    parts[r] = acc;
                }
            }
            Request.Waitall(in);
            final Object result = kind.copyOf(parts[size - 1], 0, n);
            for (int r = size - 2; r >= 0; r--) {
                op.apply(parts[r], 0, result, 0, count, datatype);
            }
            System.arraycopy(result, 0, recvbuf, recvoffset, n);
            return;
        }
        final int v = (rank - root + size) % size;
        final Object partial = scratch(kind, n);
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((v & mask) != 0) {
                csend(acc, 0, count, datatype, (v - mask + root) % size, tag).Wait();
                return;
            }
            if (v + mask < size) {
                crecv(partial, 0, count, datatype, (v + mask + root) % size, tag).Wait();
                op.apply(partial, 0, acc, 0, count, datatype);
            }
        }
        System.arraycopy(acc, 0, recvbuf, recvoffset, n);
    }

    /** {@link #Reduce} whose result every member gets. */
    public void Allreduce(final Object sendbuf, final int sendoffset, final Object recvbuf, final int recvoffset,
                          final int count, final Datatype datatype, final Op op) throws MPIException {
        final int tag = nextTag(REDUCE);
        checkOp(op, datatype);
        checkContiguous(datatype, "Allreduce");
        checkBuffer(sendbuf, sendoffset, count, datatype);
        checkBuffer(recvbuf, recvoffset, count, datatype);
        final int size = members.length;
        final int n = count * datatype.elements;
        if (op.Is_commute() && size > 1 && count >= size && (long) n * datatype.kind.bytes() >= RING_BYTES) {
            System.arraycopy(sendbuf, sendoffset, recvbuf, recvoffset, n);
            ringAllreduce(recvbuf, recvoffset, count, datatype, op, tag);
            return;
        }
        if (!op.Is_commute() || Integer.bitCount(size) != 1) {
            Reduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, 0);
            Bcast(recvbuf, recvoffset, count, datatype, 0);
            return;
        }
        // Recursive doubling: log2(size) exchanges with partners rank ^ 1, ^ 2, ..., each combining what it gets.
        // Every rank computes its partner's combination the other way round, which a commuting operation makes
        // the same value: all ranks end with identical results.
        System.arraycopy(sendbuf, sendoffset, recvbuf, recvoffset, n);
        final Object partial = size > 1 ? scratch(datatype.kind, n) : null;
        for (int mask = 1; mask < size; mask <<= 1) {
            final int partner = rank ^ mask;
            final Request in = crecv(partial, 0, count, datatype, partner, tag);
            csend(recvbuf, recvoffset, count, datatype, partner, tag).Wait();
            in.Wait();
            op.apply(partial, 0, recvbuf, recvoffset, count, datatype);
        }
    }

    /**
     * A large commuting {@link #Allreduce} on {@code buf} (which holds this rank's values): a ring, in which each rank
     * sends its right neighbour one block in {@code size} at each step, first to combine them (after {@code size -
     * 1} steps each rank holds one block combined over all ranks), then to pass the combined blocks round. Each rank
     * sends and combines about twice its buffer whatever the size, where recursive doubling sends and combines the
     * whole of it {@code log2(size)} times; every block is combined on one rank only, so all end with the same bits.
     */
    private void ringAllreduce(final Object buf, final int offset, final int count, final Datatype datatype,
                               final Op op, final int tag) throws MPIException {
        final int size = members.length;
        final int e = datatype.elements;
        final int[] start = blocks(count, size);
        final Object partial = scratch(datatype.kind, (count / size + 1) * e);
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        for (int step = 0; step < 2 * (size - 1); step++) {
            final boolean combining = step < size - 1;
            final int out = Math.floorMod(combining ? rank - step : rank + 1 - step + size - 1, size);
            final int in = Math.floorMod(out - 1, size);
            final Request received = combining ? crecv(partial, 0, start[in + 1] - start[in], datatype, left, tag)
                : crecv(buf, offset + start[in] * e, start[in + 1] - start[in], datatype, left, tag);
            csend(buf, offset + start[out] * e, start[out + 1] - start[out], datatype, right, tag).Wait();
            received.Wait();
            if (combining) {
                op.apply(partial, 0, buf, offset + start[in] * e, start[in + 1] - start[in], datatype);
            }
        }
    }

    /** {@code count} items cut in {@code size} blocks of about one length: block b is items start[b] to start[b+1]. */
    private static int[] blocks(final int count, final int size) {
        final int[] start = new int[size + 1];
        for (int b = 0; b <= size; b++) {
            start[b] = (int) ((long) count * b / size);
        }
        return start;
    }

    /**
     * A large {@link #Bcast} ({@code v}: this rank counted from the root): block {@code j} of the buffer goes down
     * the binomial tree to the rank {@code j} places after the root (each rank gets its subtree's blocks at once),
     * then every block goes round the ring of ranks.
     */
    private void scatterThenRing(final Object buf, final int offset, final int count, final Datatype datatype,
                                 final int v, final int tag) throws MPIException {
        final int size = members.length;
        final int e = datatype.elements;
        final int[] start = blocks(count, size);
        final int root = (rank - v + size) % size;
        int mask = 1;
        while (mask < size) { // a rank's subtree is the v..v+mask-1 of its lowest bit: its parent sends it those
            if ((v & mask) != 0) {
                final int end = Math.min(v + mask, size);
                crecv(buf, offset + start[v] * e, start[end] - start[v], datatype, (v - mask + root) % size, tag)
                    .Wait();
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (v + mask < size) {
                final int end = Math.min(v + 2 * mask, size);
                csend(buf, offset + start[v + mask] * e, start[end] - start[v + mask], datatype,
                    (v + mask + root) % size, tag).Wait();
            }
        }
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        for (int step = 0; step < size - 1; step++) {
            final int out = Math.floorMod(v - step, size);
            final int in = Math.floorMod(v - step - 1, size);
            final Request received = crecv(buf, offset + start[in] * e, start[in + 1] - start[in], datatype, left,
                tag);
            csend(buf, offset + start[out] * e, start[out + 1] - start[out], datatype, right, tag).Wait();
            received.Wait();
        }
    }

    /** Combines {@code sendbuf} as {@link #Reduce}, then hands member {@code i} its {@code recvcounts[i]} items. */
    public void Reduce_scatter(final Object sendbuf, final int sendoffset, final Object recvbuf, final int recvoffset,
                               final int[] recvcounts, final Datatype datatype, final Op op) throws MPIException {
        checkCounts(recvcounts, "recvcounts");
        final int[] displs = new int[recvcounts.length];
        int total = 0;
        for (int i = 0; i < recvcounts.length; i++) {
            displs[i] = total;
            total += recvcounts[i];
        }
        final Object reduced = datatype.kind.newArray(total * datatype.elements);
        Reduce(sendbuf, sendoffset, reduced, 0, total, datatype, op, 0);
        Scatterv(reduced, 0, recvcounts, displs, datatype, recvbuf, recvoffset, recvcounts[rank], datatype, 0);
    }

    /** Inclusive prefix reduction: member {@code i} gets {@code x0 op ... op xi}. */
    public void Scan(final Object sendbuf, final int sendoffset, final Object recvbuf, final int recvoffset,
                     final int count, final Datatype datatype, final Op op) throws MPIException {
        final int tag = nextTag(SCAN);
        checkOp(op, datatype);
        checkContiguous(datatype, "Scan");
        checkBuffer(sendbuf, sendoffset, count, datatype);
        checkBuffer(recvbuf, recvoffset, count, datatype);
        final int n = count * datatype.elements;
        final Object result = datatype.kind.copyOf(sendbuf, sendoffset, n);
        if (rank > 0) {
            final Object before = datatype.kind.newArray(n);
            crecv(before, 0, count, datatype, rank - 1, tag).Wait();
            op.apply(before, 0, result, 0, count, datatype);
        }
        if (rank + 1 < members.length) {
            csend(result, 0, count, datatype, rank + 1, tag).Wait();
        }
        System.arraycopy(result, 0, recvbuf, recvoffset, n);
    }

    /** Everyone's {@code sendcount} items, one block per rank in rank order, into {@code root}'s {@code recvbuf}. */
    public void Gather(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
                       final Object recvbuf, final int recvoffset, final int recvcount, final Datatype recvtype,
                       final int root) throws MPIException {
        Gatherv(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, uniform(recvcount),
            blocks(recvcount), recvtype, root);
    }

    /** As {@link #Gather}, rank {@code i}'s {@code recvcounts[i]} items going to {@code displs[i]} (in items). */
    public void Gatherv(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
                        final Object recvbuf, final int recvoffset, final int[] recvcounts, final int[] displs,
                        final Datatype recvtype, final int root) throws MPIException {
        final int tag = nextTag(GATHER);
        checkRoot(root);
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype);
        if (rank != root) {
            csend(sendbuf, sendoffset, sendcount, sendtype, root, tag).Wait();
            return;
        }
        checkCounts(recvcounts, "recvcounts");
        checkCounts(displs, "displs");
        for (int r = 0; r < members.length; r++) { // all checked before any is posted: a failed call posts none
            checkBuffer(recvbuf, recvoffset + displs[r] * recvtype.Extent(), recvcounts[r], recvtype);
        }
        final Request[] in = new Request[members.length];
        for (int r = 0; r < members.length; r++) {
            final int at = recvoffset + displs[r] * recvtype.Extent();
            if (r == rank) {
                copyOwn(sendbuf, sendoffset, sendcount, sendtype, recvbuf, at, recvcounts[r], recvtype);
            } else {
                in[r] = crecv(recvbuf, at, recvcounts[r], recvtype, r, tag);
            }
        }
        Request.Waitall(in);
    }

    /** {@code root}'s {@code sendbuf}, one block of {@code sendcount} items per rank in rank order, to each rank. */
    public void Scatter(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
                        final Object recvbuf, final int recvoffset, final int recvcount, final Datatype recvtype,
                        final int root) throws MPIException {
        Scatterv(sendbuf, sendoffset, uniform(sendcount), blocks(sendcount), sendtype, recvbuf, recvoffset,
            recvcount, recvtype, root);
    }

    public void Scatterv(final Object sendbuf, final int sendoffset, final int[] sendcounts, final int[] displs,
                         final Datatype sendtype, final Object recvbuf, final int recvoffset, final int recvcount,
                         final Datatype recvtype, final int root) throws MPIException {
        final int tag = nextTag(SCATTER);
        checkRoot(root);
        checkBuffer(recvbuf, recvoffset, recvcount, recvtype);
        if (rank != root) {
            crecv(recvbuf, recvoffset, recvcount, recvtype, root, tag).Wait();
            return;
        }
        checkCounts(sendcounts, "sendcounts");
        checkCounts(displs, "displs");
        for (int r = 0; r < members.length; r++) {
            checkBuffer(sendbuf, sendoffset + displs[r] * sendtype.Extent(), sendcounts[r], sendtype);
        }
        final Request[] out = new Request[members.length];
        for (int r = 0; r < members.length; r++) {
            final int at = sendoffset + displs[r] * sendtype.Extent();
            if (r == rank) {
                copyOwn(sendbuf, at, sendcounts[r], sendtype, recvbuf, recvoffset, recvcount, recvtype);
            } else {
                out[r] = csend(sendbuf, at, sendcounts[r], sendtype, r, tag);
            }
        }
        Request.Waitall(out);
    }

    /** {@link #Gather} whose result every member gets. */
    public void Allgather(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
                          final Object recvbuf, final int recvoffset, final int recvcount, final Datatype recvtype)
        throws MPIException {
        Allgatherv(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, uniform(recvcount),
            blocks(recvcount), recvtype);
    }

    public void Allgatherv(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
                           final Object recvbuf, final int recvoffset, final int[] recvcounts, final int[] displs,
                           final Datatype recvtype) throws MPIException {
        final int tag = nextTag(ALLGATHER);
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype);
        checkCounts(recvcounts, "recvcounts");
        checkCounts(displs, "displs");
        final int size = members.length;
        for (int r = 0; r < size; r++) {
            checkBuffer(recvbuf, recvoffset + displs[r] * recvtype.Extent(), recvcounts[r], recvtype);
        }
        final Request[] all = new Request[2 * size];
        for (int r = 0; r < size; r++) {
            final int at = recvoffset + displs[r] * recvtype.Extent();
            if (r == rank) {
                copyOwn(sendbuf, sendoffset, sendcount, sendtype, recvbuf, at, recvcounts[r], recvtype);
            } else {
                all[r] = crecv(recvbuf, at, recvcounts[r], recvtype, r, tag);
                all[size + r] = csend(sendbuf, sendoffset, sendcount, sendtype, r, tag);
            }
        }
        Request.Waitall(all);
    }

    /** Block {@code j} of each rank's {@code sendbuf} goes to rank {@code j}, into block {@code i} of its {@code recvbuf}. */
    public void Alltoall(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
                         final Object recvbuf, final int recvoffset, final int recvcount, final Datatype recvtype)
        throws MPIException {
        Alltoallv(sendbuf, sendoffset, uniform(sendcount), blocks(sendcount), sendtype, recvbuf, recvoffset,
            uniform(recvcount), blocks(recvcount), recvtype);
    }

    public void Alltoallv(final Object sendbuf, final int sendoffset, final int[] sendcounts, final int[] sdispls,
                          final Datatype sendtype, final Object recvbuf, final int recvoffset, final int[] recvcounts,
                          final int[] rdispls, final Datatype recvtype) throws MPIException {
        final int tag = nextTag(ALLTOALL);
        checkCounts(sendcounts, "sendcounts");
        checkCounts(sdispls, "sdispls");
        checkCounts(recvcounts, "recvcounts");
        checkCounts(rdispls, "rdispls");
        final int size = members.length;
        for (int r = 0; r < size; r++) {
            checkBuffer(sendbuf, sendoffset + sdispls[r] * sendtype.Extent(), sendcounts[r], sendtype);
            checkBuffer(recvbuf, recvoffset + rdispls[r] * recvtype.Extent(), recvcounts[r], recvtype);
        }
        final Request[] all = new Request[2 * size];
        for (int r = 0; r < size; r++) {
            final int from = sendoffset + sdispls[r] * sendtype.Extent();
            final int to = recvoffset + rdispls[r] * recvtype.Extent();
            if (r == rank) {
                copyOwn(sendbuf, from, sendcounts[r], sendtype, recvbuf, to, recvcounts[r], recvtype);
            } else {
                all[r] = crecv(recvbuf, to, recvcounts[r], recvtype, r, tag);
                all[size + r] = csend(sendbuf, from, sendcounts[r], sendtype, r, tag);
            }
        }
        Request.Waitall(all);
    }

    // --- Helpers ---

    private Request csend(final Object buf, final int offset, final int count, final Datatype type, final int dest,
                          final int tag) throws MPIException {
        return start(buf, offset, count, type, dest, tag, Mode.STANDARD, context + 1);
    }

    private Request crecv(final Object buf, final int offset, final int count, final Datatype type, final int source,
                          final int tag) throws MPIException {
        return receive(buf, offset, count, type, source, tag, context + 1);
    }

    /** A rank's own block of a gather or scatter: copied, with the checks a message would get. */
    private static void copyOwn(final Object from, final int fromOffset, final int count, final Datatype type,
                                final Object to, final int toOffset, final int capacity, final Datatype toType)
        throws MPIException {
        if (type.kind != toType.kind) {
            throw new MPIException("the send type " + type + " and the receive type " + toType + " differ");
        }
        final int n = count * type.elements;
        if (n > capacity * toType.elements) {
            throw new MPIException("message truncated: " + n + " elements do not fit in a receive of "
                + capacity * toType.elements + "; nothing was written");
        }
        toType.unpack(type.pack(from, fromOffset, count), n, to, toOffset);
    }

    private void checkRoot(final int root) throws MPIException {
        MPI.state();
        if (root < 0 || root >= members.length) {
            throw new MPIException("root rank " + root + " is not in this communicator of " + members.length
                + " ranks");
        }
    }

    /** Reductions combine the elements in place, so far only of types whose items are their elements in a row. */
    private static void checkContiguous(final Datatype type, final String call) throws MPIException {
        MPI.checkType(type);
        if (!type.isContiguous()) {
            throw new MPIException(call + " takes a basic or contiguous datatype, not " + type + ", so far; send a"
                + " contiguous copy");
        }
    }

    /** Every rank checks the operation fits the type, so that all refuse it (not only the ranks that apply it). */
    private static void checkOp(final Op op, final Datatype type) throws MPIException {
        if (op == null) {
            throw new MPIException("the operation is null");
        }
        MPI.checkType(type);
        op.checkApplies(type);
    }

    private void checkCounts(final int[] counts, final String what) throws MPIException {
        if (counts == null || counts.length < members.length) {
            throw new MPIException(what + " needs one entry per rank (" + members.length + "), not "
                + (counts == null ? "null" : counts.length));
        }
    }

    private int[] uniform(final int count) {
        final int[] counts = new int[members.length];
        java.util.Arrays.fill(counts, count);
        return counts;
    }

    private int[] blocks(final int count) {
        final int[] displs = new int[members.length];
        for (int i = 0; i < displs.length; i++) {
            displs[i] = i * count;
        }
        return displs;
    }
}
