package mpi;

/**
 * The checks of a collective's arguments. A rank makes them before it sends or posts anything, so that a call it
 * refuses leaves no message behind; checks that every rank makes (the operation, the type) make all refuse alike.
 */
final class CollectiveArgs {
    private CollectiveArgs() {}

    static void checkRoot(final Comm comm, final int root) throws MPIException {
        MPI.state();
        if (root < 0 || root >= comm.members.length) {
            throw new MPIException(
                    "root rank " + root + " is not in this communicator of " + comm.members.length + " ranks");
        }
    }

    /**
     * That the operation fits the type, and that the type is contiguous (reductions combine the elements in place,
     * so far only of such types); then the send buffer.
     */
    static void checkReduction(
            final Op op,
            final Datatype type,
            final String call,
            final Object sendbuf,
            final int sendoffset,
            final int count)
            throws MPIException {
        if (op == null) {
            throw new MPIException("the operation is null");
        }
        MPI.checkType(type);
        op.checkApplies(type);
        if (!type.isContiguous()) {
            throw new MPIException(call + " takes a basic or contiguous datatype, not " + type + ", so far; send a"
                    + " contiguous copy");
        }
        Comm.checkBuffer(sendbuf, sendoffset, count, type);
    }

    /** The counts and displacements of a v-collective, one per rank, and that each block fits in the buffer. */
    static void checkBlocks(
            final Comm comm,
            final Object buf,
            final int offset,
            final int[] counts,
            final String countsName,
            final int[] displs,
            final String displsName,
            final Datatype type)
            throws MPIException {
        checkCounts(comm, counts, countsName);
        checkCounts(comm, displs, displsName);
        for (int r = 0; r < comm.members.length; r++) {
            Comm.checkBuffer(buf, offset + displs[r] * type.Extent(), counts[r], type);
        }
    }

    /** Alltoallv's blocks: the counts and displacements of both sides, then each block, rank by rank. */
    static void checkExchange(
            final Comm comm,
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
        checkCounts(comm, sendcounts, "sendcounts");
        checkCounts(comm, sdispls, "sdispls");
        checkCounts(comm, recvcounts, "recvcounts");
        checkCounts(comm, rdispls, "rdispls");
        for (int r = 0; r < comm.members.length; r++) {
            Comm.checkBuffer(sendbuf, sendoffset + sdispls[r] * sendtype.Extent(), sendcounts[r], sendtype);
            Comm.checkBuffer(recvbuf, recvoffset + rdispls[r] * recvtype.Extent(), recvcounts[r], recvtype);
        }
    }

    static void checkCounts(final Comm comm, final int[] counts, final String what) throws MPIException {
        if (counts == null || counts.length < comm.members.length) {
            throw new MPIException(what + " needs one entry per rank (" + comm.members.length + "), not "
                    + (counts == null ? "null" : counts.length));
        }
    }
}
