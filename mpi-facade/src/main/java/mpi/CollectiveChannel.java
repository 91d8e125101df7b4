package mpi;

import org.troupe.mpi.fabric.Kind;
import org.troupe.mpi.fabric.coll.Operator;
import org.troupe.mpi.fabric.coll.Pending;
import org.troupe.mpi.fabric.coll.PointToPoint;

/**
 * A communicator's collective context as the algorithms of {@code org.troupe.mpi.fabric.coll} see it: standard
 * sends and receives on {@code context + 1}, which the program's own messages never match, with every check
 * {@link Comm}'s point-to-point calls make.
 */
final class CollectiveChannel implements PointToPoint<Datatype, MPIException> {
    private final Comm comm;

    CollectiveChannel(final Comm comm) {
        this.comm = comm;
    }

    @Override
    public int rank() {
        return comm.rank;
    }

    @Override
    public int size() {
        return comm.members.length;
    }

    @Override
    public Pending<MPIException> send(
            final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
            throws MPIException {
        final Request r = comm.start(buf, offset, count, type, dest, tag, Comm.Mode.STANDARD, comm.context + 1);
        return r::Wait;
    }

    @Override
    public Pending<MPIException> receive(
            final Object buf, final int offset, final int count, final Datatype type, final int source, final int tag)
            throws MPIException {
        final Request r = comm.receive(buf, offset, count, type, source, tag, comm.context + 1);
        return r::Wait;
    }

    @Override
    public void copy(
            final Object from,
            final int fromOffset,
            final int count,
            final Datatype type,
            final Object to,
            final int toOffset,
            final int capacity,
            final Datatype toType)
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

    @Override
    public Kind kind(final Datatype type) {
        return type.kind;
    }

    @Override
    public int elements(final Datatype type) {
        return type.elements;
    }

    @Override
    public int extent(final Datatype type) {
        return type.Extent();
    }

    /** {@code op} on the items of {@code type}. */
    static Operator<MPIException> operator(final Op op, final Datatype type) {
        return new Operator<>() {
            @Override
            public boolean commutes() {
                return op.Is_commute();
            }

            @Override
            public void apply(
                    final Object in, final int inOffset, final Object inout, final int inoutOffset, final int count)
                    throws MPIException {
                op.apply(in, inOffset, inout, inoutOffset, count, type);
            }
        };
    }
}
