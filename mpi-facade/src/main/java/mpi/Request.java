package mpi;

import java.util.ArrayList;
import java.util.List;
import org.troupe.mpi.fabric.Fabric;
import org.troupe.mpi.fabric.FabricException;
import org.troupe.mpi.fabric.Message;
import org.troupe.mpi.fabric.Operation;
import org.troupe.mpi.fabric.Receive;

/**
 * A send or receive started without waiting for it ({@code Isend}, {@code Irecv}, ...): wait for it, test it, or
 * cancel it. Once waited for (or tested complete) it is a null request, which the {@code Wait*} and {@code Test*}
 * families skip.
 */
public class Request {
    private Fabric fabric;
    private Operation operation;
    private Receive receive;
    private int receiveWorldRank;
    private Message waiting;
    private int destWorldRank;
    private Status status;
    private boolean active;
    /** For a receive of a derived type: where the packed elements are, and the items they go to. */
    private Datatype unpackType;

    private Object packed;
    private Object target;
    private int targetOffset;

    Request() {}

    /** An operation that is over already (with a {@code PROC_NULL} peer, say). */
    static Request completed(final Status status) {
        final Request r = new Request();
        r.status = status;
        r.active = true;
        return r;
    }

    static Request ofReceive(final Fabric fabric, final Receive receive, final int worldRank) {
        final Request r = new Request();
        r.fabric = fabric;
        r.receive = receive;
        r.receiveWorldRank = worldRank;
        r.operation = receive.operation();
        r.active = true;
        return r;
    }

    /**
     * @param waiting the message as it waits at the destination for a receive (null if a receive took it at once)
     */
    static Request ofSend(final Fabric fabric, final Operation send, final Message waiting, final int destWorldRank) {
        final Request r = new Request();
        r.fabric = fabric;
        r.operation = send;
        r.waiting = waiting;
        r.destWorldRank = destWorldRank;
        r.active = true;
        return r;
    }

    /** Once complete, spreads the packed elements received into {@code buf}'s items of {@code type}. */
    void unpackInto(final Datatype type, final Object packedElements, final Object buf, final int offset) {
        unpackType = type;
        packed = packedElements;
        target = buf;
        targetOffset = offset;
    }

    /** Takes over what {@code other} started (a persistent request's {@code Start}). */
    void adopt(final Request other) {
        fabric = other.fabric;
        operation = other.operation;
        receive = other.receive;
        receiveWorldRank = other.receiveWorldRank;
        waiting = other.waiting;
        destWorldRank = other.destWorldRank;
        status = other.status;
        unpackType = other.unpackType;
        packed = other.packed;
        target = other.target;
        targetOffset = other.targetOffset;
        active = true;
    }

    /** Waits for it to complete; a null request returns at once with an empty status. */
    public Status Wait() throws MPIException {
        if (!active) {
            return empty();
        }
        if (operation != null) {
            try {
                operation.await(fabric);
            } catch (FabricException e) {
                throw new MPIException(e.getMessage(), e);
            }
        }
        return finish();
    }

    /** Its status if it is complete (it is then a null request), else null. */
    public Status Test() throws MPIException {
        if (!active) {
            return empty();
        }
        if (operation != null) {
            if (!operation.isDone()) {
                fabric.progress(); // a program that tests in a loop sends what it was cleared to send meanwhile
            }
            if (!operation.isDone()) {
                if (fabric.isAborted()) {
                    return Wait(); // throws
                }
                return null;
            }
            try {
                operation.checkNotFailed();
            } catch (FabricException e) {
                active = false;
                throw new MPIException(e.getMessage(), e);
            }
        }
        return finish();
    }

    private Status finish() throws MPIException {
        active = false;
        if (status != null) {
            return status;
        }
        if (unpackType != null && !operation.isCancelled()) {
            Object elements = packed;
            if (packed instanceof Receive r) { // objects: decoded here, by the receiving rank's class loader
                final Object[] decoded = ObjectCodec.decode(r.encoded());
                if (decoded.length != operation.count()) {
                    throw new MPIException("MPI.OBJECT: a message announced " + operation.count() + " objects and"
                            + " held " + decoded.length);
                }
                elements = decoded;
            }
            unpackType.unpack(elements, operation.count(), target, targetOffset);
        }
        return new Status(operation.source(), operation.tag(), operation.count(), operation.isCancelled());
    }

    private static Status empty() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, false);
    }

    /** Whether it is a null request: complete and waited for, or never started. */
    public boolean Is_null() {
        return !active;
    }

    /**
     * Cancels it if it has not matched yet: a posted receive, or a send no receive has taken. A cancelled request
     * still completes; its status says {@code Test_cancelled()}.
     */
    public void Cancel() throws MPIException {
        if (!active || operation == null) {
            return;
        }
        if (receive != null) {
            fabric.cancel(receiveWorldRank, receive);
        } else if (waiting != null && fabric.cancel(destWorldRank, waiting) && operation.isDone()) {
            // An eager send was complete already: its status must still say that it was cancelled.
            status = new Status(operation.source(), operation.tag(), 0, true);
        }
    }

    /** Forgets it; a send or receive in flight still completes (a receive still fills its buffer). */
    public void Free() {
        if (active && unpackType != null && operation != null) {
            final Operation op = operation;
            op.whenDone(() -> {
                if (op.isDone() && !op.isCancelled()) {
                    try {
                        op.checkNotFailed();
                        finish();
                    } catch (FabricException | MPIException e) {
                        // freed: nobody is left to be told that the receive failed
                    }
                }
            });
        }
        active = false;
    }

    // --- Over arrays of requests ---

    /** Waits for all; returns their statuses (empty ones for null requests). */
    public static Status[] Waitall(final Request[] requests) throws MPIException {
        final Status[] statuses = new Status[requests.length];
        for (int i = 0; i < requests.length; i++) {
            statuses[i] = requests[i] == null ? empty() : requests[i].Wait();
            statuses[i].index = i;
        }
        return statuses;
    }

    /** Waits for one; its status carries its {@code index} ({@link MPI#UNDEFINED} if all are null requests). */
    public static Status Waitany(final Request[] requests) throws MPIException {
        while (true) {
            final Status s = Testany(requests);
            if (s != null) {
                return s;
            }
            awaitAny(requests);
        }
    }

    /** Waits for at least one; returns the statuses of all that completed (empty if all are null requests). */
    public static Status[] Waitsome(final Request[] requests) throws MPIException {
        while (true) {
            final Status[] s = Testsome(requests);
            if (s.length > 0 || allNull(requests)) {
                return s;
            }
            awaitAny(requests);
        }
    }

    /** Waits (spinning, then parked until one completes) until one of the active requests is done. */
    private static void awaitAny(final Request[] requests) throws MPIException {
        Fabric fabric = null;
        for (final Request r : requests) {
            if (r != null && r.active && r.operation != null) {
                fabric = r.fabric;
                break;
            }
        }
        if (fabric == null) {
            return;
        }
        try {
            fabric.await(() -> anyDone(requests), firstActive(requests), t -> {
                for (final Request r : requests) {
                    if (r != null && r.active && r.operation != null) {
                        r.operation.waitedBy(t);
                    }
                }
            });
        } catch (FabricException e) {
            throw new MPIException(e.getMessage(), e);
        }
    }

    /** What a wait for any of them is blocked in, for a report: any of several, the first's envelope. */
    private static Operation firstActive(final Request[] requests) {
        for (final Request r : requests) {
            if (r != null && r.active && r.operation != null) {
                return r.operation.firstOfSeveral();
            }
        }
        return null;
    }

    private static boolean anyDone(final Request[] requests) {
        for (final Request r : requests) {
            if (r != null && r.active && (r.operation == null || r.operation.isDone())) {
                return true;
            }
        }
        return false;
    }

    /** The statuses of all if all are complete, else null (and none is completed by the test). */
    public static Status[] Testall(final Request[] requests) throws MPIException {
        for (final Request r : requests) {
            if (r != null && r.active && r.operation != null && !r.operation.isDone()) {
                r.fabric.progress(); // as Test
                break;
            }
        }
        for (final Request r : requests) {
            if (r != null && r.active && r.operation != null && !r.operation.isDone()) {
                if (r.fabric.isAborted()) {
                    r.Wait(); // throws
                }
                return null;
            }
        }
        return Waitall(requests);
    }

    /** The status of one complete request (with its {@code index}), or null if none is; all null: index UNDEFINED. */
    public static Status Testany(final Request[] requests) throws MPIException {
        boolean anyActive = false;
        for (int i = 0; i < requests.length; i++) {
            final Request r = requests[i];
            if (r == null || !r.active) {
                continue;
            }
            anyActive = true;
            final Status s = r.Test();
            if (s != null) {
                s.index = i;
                return s;
            }
        }
        return anyActive ? null : empty();
    }

    /** The statuses of the requests complete now, each with its {@code index}. */
    public static Status[] Testsome(final Request[] requests) throws MPIException {
        final List<Status> done = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            final Request r = requests[i];
            if (r == null || !r.active) {
                continue;
            }
            final Status s = r.Test();
            if (s != null) {
                s.index = i;
                done.add(s);
            }
        }
        return done.toArray(new Status[0]);
    }

    private static boolean allNull(final Request[] requests) {
        for (final Request r : requests) {
            if (r != null && r.active) {
                return false;
            }
        }
        return true;
    }
}
