package org.troupe.mpi.fabric;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Which rank of which job a thread belongs to: set by the launcher on each rank's thread and inherited by the
 * threads a rank starts, so that {@code MPI.Init} finds its rank, and several threads of one rank share it.
 */
public final class RankBinding {
    private static final InheritableThreadLocal<RankBinding> CURRENT = new InheritableThreadLocal<>();
    /** This host's name, MPI's processor name of every rank this JVM runs. */
    private static final String HOST = hostName();

    private final Fabric fabric;
    private final int rank;
    private final List<String> applicationPackages;
    private final List<String> unnamedPackageClasses;

    public RankBinding(final Fabric fabric, final int rank) {
        this(fabric, rank, List.of(), List.of());
    }

    /**
     * @param applicationPackages the named packages of the program's classes, whose objects may travel as
     *     {@code MPI.OBJECT}
     * @param unnamedPackageClasses the program's classes in the unnamed package, which may travel too
     */
    public RankBinding(
            final Fabric fabric,
            final int rank,
            final List<String> applicationPackages,
            final List<String> unnamedPackageClasses) {
        if (rank < 0 || rank >= fabric.size()) {
            throw new IllegalArgumentException("rank " + rank + " of a job of " + fabric.size());
        }
        this.fabric = fabric;
        this.rank = rank;
        this.applicationPackages = List.copyOf(applicationPackages);
        this.unnamedPackageClasses = List.copyOf(unnamedPackageClasses);
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
        return HOST;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    public List<String> applicationPackages() {
        return applicationPackages;
    }

    public List<String> unnamedPackageClasses() {
        return unnamedPackageClasses;
    }
}
