package org.troupe.mpi.run;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rank of a job deployed by a descriptor ({@code mpjrun -descriptor}): the active object the launcher creates on a
 * node, which runs the rank in the node's JVM, on the node's runtime, as {@link JvmRank} does in a JVM of its own.
 */
public class RankHost {
    private static final Logger LOG = LoggerFactory.getLogger(RankHost.class);

    public RankHost() {}

    /**
     * Starts rank {@code rank} of {@code size} on a thread of its own and returns: it calls home to the launcher's
     * endpoint {@code launcher}, sends its output there, and reports its end there too. {@code properties}
     * ({@code name=value}) are set first, as the launcher's JVM was given them; the program's own classes (which
     * may travel as MPI.OBJECT) are those of {@code packages} and the unnamed package's {@code unnamedClasses}, as
     * the launcher found them on the program's class path (this host may have it elsewhere).
     */
    public void start(
            final String launcher,
            final int rank,
            final int size,
            final String[] packages,
            final String[] unnamedClasses,
            final String mainClass,
            final String[] programArgs,
            final String[] properties) {
        setProperties(properties);
        Thread.ofPlatform().name("mpi-rank-" + rank).start(() -> {
            try {
                JvmRank.run(
                        launcher,
                        rank,
                        size,
                        new ApplicationClasses(List.of(packages), List.of(unnamedClasses)),
                        mainClass,
                        programArgs,
                        true);
            } catch (Exception | Error e) { // the launcher hears nothing: it takes the rank for lost
                LOG.error("Rank {} could not run: {}", rank, e.toString(), e);
            }
        });
    }

    /**
     * As {@link #start}, for the ranks {@code first} to {@code first + count - 1}, as threads of this JVM (hybrid
     * placement, {@link HybridRanks}): the program's classes are loaded for each rank from the entries of this JVM's
     * class path that hold them. Their output goes to the launcher, each rank's as its own.
     */
    public void startRanks(
            final String launcher,
            final int first,
            final int count,
            final int size,
            final String[] packages,
            final String[] unnamedClasses,
            final String mainClass,
            final String[] programArgs,
            final String[] properties) {
        setProperties(properties);
        final ApplicationClasses application = new ApplicationClasses(List.of(packages), List.of(unnamedClasses));
        Thread.ofPlatform()
                .name("mpi-ranks-" + first + "-" + (first + count - 1))
                .start(() -> {
                    try {
                        HybridRanks.run(
                                launcher,
                                first,
                                count,
                                size,
                                HybridRanks.rankClassPath(HybridRanks.applicationEntries(mainClass, application)),
                                application,
                                mainClass,
                                programArgs,
                                true);
                    } catch (Exception | Error e) { // the launcher hears nothing: it takes the ranks for lost
                        LOG.error("Ranks {} to {} could not run: {}", first, first + count - 1, e.toString(), e);
                    }
                });
    }

    /** The launcher's {@code -Dname=value} settings ({@code name=value}), as this JVM's system properties. */
    private static void setProperties(final String[] properties) {
        for (final String p : properties) {
            final int eq = p.indexOf('=');
            System.setProperty(p.substring(0, eq), p.substring(eq + 1));
        }
    }
}
