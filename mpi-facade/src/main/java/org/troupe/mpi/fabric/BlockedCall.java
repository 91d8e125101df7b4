package org.troupe.mpi.fabric;

/**
 * A call a rank has been blocked in for a while: what {@code mpjrun} reports when every rank of a job is, or when
 * asked. Ranks are world ranks; {@code peer} is {@link Fabric#ANY_SOURCE} for a receive from any.
 *
 * @param sinceNanos when the wait began, by this JVM's {@code System.nanoTime}
 */
public record BlockedCall(int rank, Call call, int peer, int context, int tag, int elements, long sinceNanos) {

    /** What the rank waits for. */
    public enum Call {
        /** A message to arrive (a receive, a wait for one, a probe). */
        RECV,
        /** A receive to take its message (a synchronous or large send, a wait for one). */
        SEND,
        /** A message to arrive, without taking it. */
        PROBE,
        /** Any of several requests to complete (Waitany, Waitsome): its peer, tag and the rest are its first's. */
        ANY
    }

    /** Whether it is a step of a collective: those run on the odd context of their communicator's pair. */
    public boolean inCollective() {
        return (context & 1) == 1;
    }

    /** The communicator's name: the world's and self's by name, others by their context. */
    public String communicator() {
        final int pointToPoint = context & ~1;
        return switch (pointToPoint) {
            case Fabric.WORLD_CONTEXT -> "COMM_WORLD";
            case Fabric.SELF_CONTEXT -> "COMM_SELF";
            default -> "the communicator of context " + pointToPoint;
        };
    }
}
