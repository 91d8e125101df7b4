package org.troupe.mpi.fabric.coll;

/**
 * The tags of one communicator's collectives. Every rank counts the same collectives in the same order (MPI requires
 * it), so that each collective's messages carry a tag of their own ({@code count << 4 | kind}) and a message left
 * over by one that failed on some rank (a root that refused its arguments) never matches a later one.
 */
public final class Tags {
    public static final int BARRIER = 1;
    public static final int BCAST = 2;
    public static final int REDUCE = 3;
    public static final int GATHER = 4;
    public static final int SCATTER = 5;
    public static final int ALLGATHER = 6;
    public static final int ALLTOALL = 7;
    public static final int SCAN = 8;

    /** The name of a collective kind, as a report of blocked ranks gives it. */
    public static String name(final int kind) {
        return switch (kind) {
            case BARRIER -> "Barrier";
            case BCAST -> "Bcast";
            case REDUCE -> "Reduce";
            case GATHER -> "Gather";
            case SCATTER -> "Scatter";
            case ALLGATHER -> "Allgather";
            case ALLTOALL -> "Alltoall";
            case SCAN -> "Scan";
            default -> "collective " + kind;
        };
    }

    /** Collectives called so far on the communicator. */
    private int collectives;

    /** The tag of the next collective, of {@code kind}. */
    public int next(final int kind) {
        return ((collectives++ & 0x7FF_FFFF) << 4) | kind;
    }
}
