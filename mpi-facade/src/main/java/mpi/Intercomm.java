package mpi;

/**
 * A communicator between two disjoint groups: point-to-point ranks name members of the other group, while
 * {@link #Rank} and {@link #Size} are this rank's place in its own. Made by {@link Intracomm#Create_intercomm};
 * {@link #Merge} makes one intracommunicator of both groups.
 */
public class Intercomm extends Comm {
    /** This rank's own group, as the intracommunicator it came from (its collectives serve Merge). */
    private final Intracomm local;
    /** Whether this side's leader has the lower world rank: its group comes first when Merge cannot tell. */
    private final boolean lowSide;

    Intercomm(final int context, final int[] remoteMembers, final Intracomm local, final boolean lowSide) {
        super(context, remoteMembers, local.rank);
        this.local = local;
        this.lowSide = lowSide;
    }

    /**
     * An intercommunicator between {@code local}'s group and another, disjoint one (see
     * {@link Intracomm#Create_intercomm}): the leaders swap their group sizes, then the groups (world ranks) and who
     * takes the context, over {@code peer} with {@code tag}; each tells its own group.
     */
    static Intercomm create(
            final Intracomm local, final Comm peer, final int leader, final int remoteLeader, final int tag)
            throws MPIException {
        final int size = local.members.length;
        final int[] info = new int[2];
        int[] remote = null;
        if (local.rank == leader) {
            if (peer == null) {
                throw new MPIException("Create_intercomm: the peer communicator is null");
            }
            final int me = local.members[local.rank];
            final int[] mine = {size, me};
            final int[] theirs = new int[2];
            peer.Sendrecv(mine, 0, 2, MPI.INT, remoteLeader, tag, theirs, 0, 2, MPI.INT, remoteLeader, tag);
            remote = new int[theirs[0]];
            peer.Sendrecv(
                    local.members,
                    0,
                    size,
                    MPI.INT,
                    remoteLeader,
                    tag,
                    remote,
                    0,
                    remote.length,
                    MPI.INT,
                    remoteLeader,
                    tag);
            for (final int w : remote) {
                if (local.indexOfWorld(w) >= 0) {
                    throw new MPIException("Create_intercomm: the two groups share a rank (world rank " + w + ")");
                }
            }
            final boolean low = me < theirs[1];
            final int[] ctx = {low ? MPI.state().fabric.newContexts(1) : 0};
            final int[] theirCtx = new int[1];
            peer.Sendrecv(ctx, 0, 1, MPI.INT, remoteLeader, tag, theirCtx, 0, 1, MPI.INT, remoteLeader, tag);
            info[0] = remote.length;
            info[1] = low ? ctx[0] : theirCtx[0];
            info[1] = info[1] * 2 + (low ? 1 : 0); // the context, and whether this side is the low one
        }
        local.Bcast(info, 0, 2, MPI.INT, leader);
        if (remote == null) {
            remote = new int[info[0]];
        }
        local.Bcast(remote, 0, remote.length, MPI.INT, leader);
        // A copy of the local communicator for the intercommunicator's own group, with a context of its own.
        final Intracomm own = new Intracomm(local.agreeOnContexts(1), local.members.clone(), local.rank);
        return new Intercomm(info[1] >> 1, remote, own, (info[1] & 1) == 1);
    }

    /** This rank's rank in its own group. */
    @Override
    public int Rank() throws MPIException {
        return local.Rank();
    }

    /** The size of this rank's own group. */
    @Override
    public int Size() throws MPIException {
        super.Size();
        return local.Size();
    }

    @Override
    public Group Group() throws MPIException {
        return local.Group();
    }

    public int Remote_size() throws MPIException {
        return super.Size();
    }

    public Group Remote_group() throws MPIException {
        return super.Group();
    }

    /**
     * One intracommunicator of both groups: the group whose ranks pass {@code high == false} first (if both pass the
     * same, the group whose leader has the lower world rank). Collective over both groups.
     */
    public Intracomm Merge(final boolean high) throws MPIException {
        final int[] agreed = agreeAcross(high ? 1 : 0);
        final boolean otherHigh = agreed[1] == 1;
        final boolean mineFirst = high != otherHigh ? !high : lowSide;
        final int[] first = mineFirst ? local.members : members;
        final int[] second = mineFirst ? members : local.members;
        final int[] all = new int[first.length + second.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return new Intracomm(agreed[0], all, (mineFirst ? 0 : first.length) + local.rank);
    }

    /** A copy with the same groups and contexts of its own (collective over both groups). */
    @Override
    public Object clone() {
        try {
            final int context = agreeAcross(0)[0];
            return new Intercomm(context, members.clone(), (Intracomm) local.clone(), lowSide);
        } catch (MPIException e) {
            throw new IllegalStateException("clone (the intercommunicator's dup) failed: " + e.getMessage(), e);
        }
    }

    /**
     * The leaders (rank 0 of each group) agree on a fresh context, taken by the low side's, and swap {@code value}
     * (this group's leader's); each tells its own group. Returns the context and the other leader's value.
     */
    private int[] agreeAcross(final int value) throws MPIException {
        final int[] agreed = new int[2];
        if (local.rank == 0) {
            final int[] mine = {lowSide ? MPI.state().fabric.newContexts(1) : 0, value};
            final int[] theirs = new int[2];
            final Request in = receive(theirs, 0, 2, MPI.INT, 0, 0, context + 1);
            start(mine, 0, 2, MPI.INT, 0, 0, Mode.STANDARD, context + 1).Wait();
            in.Wait();
            agreed[0] = lowSide ? mine[0] : theirs[0];
            agreed[1] = theirs[1];
        }
        local.Bcast(agreed, 0, 2, MPI.INT, 0);
        return agreed;
    }
}
