package org.troupe.mpi.fabric;

/**
 * Which rank of which job a thread belongs to: set by the launcher on each rank's thread and inherited by the
 * threads a rank starts, so that {@code MPI.Init} finds its rank, and several threads of one rank share it.
 */
public final class RankBinding {
    private static final InheritableThreadLocal<RankBinding> CURRENT = new InheritableThreadLocal<>();

    private final Fabric fabric;
    private final int rank;
    private final String processorName;

    public RankBinding(final Fabric fabric, final int rank, final String processorName) {
        if (rank < 0 || rank >= fabric.size()) {
            throw new IllegalArgumentException("rank " + rank + " of a job of " + fabric.size());
        }
        this.fabric = fabric;
        this.rank = rank;
        this.processorName = processorName;
    }

    /** The binding of this thread, or null outside a launched job (a program run on its own is a job of one). */
    public static RankBinding current() {
        return CURRENT.get();
    }

    public static void bind(final RankBinding binding) {
        CURRENT.set(binding);
    }

    public Fabric fabric() {
        return fabric;
    }

    public int rank() {
        return rank;
    }

    public String processorName() {
        return processorName;
    }
}
