package mpi;

/**
 * The checks of a collective's arguments. A rank makes them before it sends or posts anything, so that a call it
 * refuses leaves no message behind; checks that every rank makes (the operation, the type) make all refuse alike.
 */
final class CollectiveArgs {
    private CollectiveArgs() {
    }

    static void checkRoot(final Comm comm, final int root) throws MPIException {
        MPI.state();
        if (root < 0 || root >= comm.members.length) {
            throw new MPIException("root rank " + root + " is not in this communicator of " + comm.members.length
                + " ranks");
        }
    }

    /**
     * That the operation fits the type, and that the type is contiguous (reductions combine the elements in place,
     * so far only of such types); then the send buffer.
     */
    static void checkReduction(final Op op, final Datatype type, final String call, final Object sendbuf,
                               final int sendoffset, final int count) throws MPIException {
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

    static void checkCounts(final Comm comm, final int[] counts, final String what) throws MPIException {
        if (counts == null || counts.length < comm.members.length) {
            throw new MPIException(what + " needs one entry per rank (" + comm.members.length + "), not "
                + (counts == null ? "null" : counts.length));
        }
    }
}
