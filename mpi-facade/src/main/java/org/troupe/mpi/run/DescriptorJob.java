package org.troupe.mpi.run;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.VirtualNode;
import org.troupe.serialization.SerializationConfig;

/**
 * A job whose ranks run in the JVMs a deployment descriptor starts ({@code mpjrun -descriptor FILE}): local JVMs, SSH
 * hosts, PBS or Slurm jobs. The launcher deploys the descriptor with the program's class path added, takes one node
 * of each JVM that calls home (in the descriptor's order) until it has one per rank, and starts each rank there
 * ({@link RankHost}); from then on the job runs as one of JVMs of this host does ({@link JvmJob}), the ranks'
 * output coming home as frames. Everything deployed is stopped when the job ends.
 */
final class DescriptorJob {
    private DescriptorJob() {}

    static int run(
            final MpjRun.Options o,
            final PrintStream out,
            final PrintStream err,
            final HangReport hangs,
            final JobView view)
            throws Exception {
        allowRankHosts();
        final List<Path> appClassPath = new ArrayList<>();
        for (final URL u : o.classPath()) {
            try {
                appClassPath.add(Path.of(u.toURI()));
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("class path entry " + u + " is not a path");
            }
        }
        final ApplicationClasses application = ApplicationClasses.of(o.classPath());
        final Deployment deployment;
        try {
            deployment = Deployment.load(o.descriptor(), defaultVariables(o.jvmCount()));
        } catch (TroupeException e) {
            err.println("mpjrun: " + e.getMessage());
            return 2;
        }
        try (Deployment d = deployment.addClassPath(appClassPath)) {
            try {
                d.start();
            } catch (TroupeException e) {
                err.println("mpjrun: cannot deploy " + o.descriptor() + ": " + e.getMessage());
                return closed(d, 2, err);
            }
            final int jvms = o.jvmCount();
            final List<Node> nodes = oneNodePerJvm(d, jvms, o.timeoutSeconds());
            if (nodes.size() < jvms && !d.failures().isEmpty()) { // why they failed is what to fix first
                err.println("mpjrun: " + o.descriptor() + " gave " + nodes.size() + " of the " + jvms + " JVM"
                        + (jvms == 1 ? "" : "s") + " -np " + o.np() + " needs: some failed to start");
                d.failures().forEach(f -> err.println("mpjrun: failed: " + f));
                err.println("mpjrun: " + d.progress());
                return closed(d, 2, err);
            }
            if (nodes.size() < jvms) {
                final boolean settled = d.virtualNodes().stream().allMatch(VirtualNode::isSettled);
                err.println("mpjrun: " + o.descriptor() + " gave " + nodes.size() + " JVM"
                        + (nodes.size() == 1 ? "" : "s") + (settled ? "" : " within " + o.timeoutSeconds() + " s")
                        + ", and -np " + o.np()
                        + (o.ppn() == 1 ? " needs one per rank" : " with -ppn " + o.ppn() + " needs " + jvms)
                        + ": map more JVMs to its virtual nodes (its variables may set their number:"
                        + " JAVA_OPTS=-D" + JVMS_VARIABLE + "=" + jvms + " for descriptors/local.xml and ssh.xml),"
                        + " or run fewer ranks" + (o.ppn() < o.np() ? ", or more per JVM (-ppn)" : "")
                        + (settled ? "" : ", or wait longer (-timeout)"));
                err.println("mpjrun: " + d.progress());
                return closed(d, 2, err);
            }
            final DeployedRank[] byRank = new DeployedRank[o.np()];
            final JvmJob.RankJvms deployed = new JvmJob.RankJvms() {
                @Override
                public JvmJob.RankJvm start(final int first, final int count, final String launcher) {
                    final Node node = nodes.get(first / o.ppn());
                    final DeployedRank handle = new DeployedRank(node.runtimeId());
                    synchronized (byRank) {
                        for (int r = first; r < first + count; r++) {
                            byRank[r] = handle;
                        }
                    }
                    final RankHost host = ActiveObjects.newActive(RankHost.class, new Object[0], node);
                    final String[] packages = application.packages().toArray(new String[0]);
                    final String[] unnamed = application.unnamedPackageClasses().toArray(new String[0]);
                    if (o.hybrid()) {
                        host.startRanks(
                                launcher,
                                first,
                                count,
                                o.np(),
                                packages,
                                unnamed,
                                o.mainClass(),
                                o.programArgs(),
                                userProperties());
                    } else {
                        host.start(
                                launcher,
                                first,
                                o.np(),
                                packages,
                                unnamed,
                                o.mainClass(),
                                o.programArgs(),
                                userProperties());
                    }
                    return handle;
                }

                @Override
                public void lost(final String runtimeId, final String reason) {
                    synchronized (byRank) {
                        for (final DeployedRank handle : byRank) {
                            if (handle != null && handle.runtimeId.equals(runtimeId)) {
                                handle.lostBecause = reason;
                            }
                        }
                    }
                }

                @Override
                public void exited(final int rank, final int status) {
                    final DeployedRank handle;
                    synchronized (byRank) {
                        handle = byRank[rank];
                    }
                    if (handle != null) {
                        handle.exitStatus = status;
                    }
                }
            };
            final int status = JvmJob.run(o, out, err, deployed, hangs, view);
            if (status != 0 && status != JobRanks.STOPPED_STATUS) {
                d.keepLogs(); // the node JVMs' logs may say why
            }
            return closed(d, status, err);
        }
    }

    /** Closes {@code d} and says where it kept its hosts' logs, if it did, as bin/deploy does; returns {@code status}. */
    private static int closed(final Deployment d, final int status, final PrintStream err) {
        d.close();
        final List<String> kept = d.keptLogs();
        if (!kept.isEmpty()) {
            err.println("mpjrun: the node JVMs' logs are kept in " + String.join(", ", kept));
        }
        return status;
    }

    /** The variable the ready-made descriptors count their JVMs by. */
    static final String JVMS_VARIABLE = "jvms";

    /**
     * {@code jvms} = the JVMs the job needs (one per rank, or per -ppn ranks), unless the user set it: the
     * ready-made descriptors then start that many, not their default number (a variable a descriptor does not use is
     * ignored).
     */
    private static Map<String, String> defaultVariables(final int jvms) {
        final Map<String, String> v = new LinkedHashMap<>();
        if (System.getProperty(JVMS_VARIABLE) == null && System.getenv(JVMS_VARIABLE) == null) {
            v.put(JVMS_VARIABLE, String.valueOf(jvms));
        }
        return v;
    }

    /**
     * The system properties given to mpjrun's JVM (JAVA_OPTS=-Dname=value), for the ranks to see as in the other
     * modes; not Troupe's own (the node JVMs have theirs from the deployment), nor the secret.
     */
    private static String[] userProperties() {
        final List<String> props = new ArrayList<>();
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("-D") && arg.contains("=") && !arg.startsWith("-Dtroupe.")) {
                props.add(arg.substring(2));
            }
        }
        return props.toArray(new String[0]);
    }

    /** The rank hosts are created by the launcher on the nodes: the nodes' JVMs must allow their class. */
    private static void allowRankHosts() {
        final String key = SerializationConfig.ALLOWED_PACKAGES_PROP_NAME;
        final String now = System.getProperty(key, "");
        final String mine = RankHost.class.getPackageName();
        if (!List.of(now.split(",")).contains(mine)) {
            System.setProperty(key, now.isBlank() ? mine : now + "," + mine);
        }
    }

    /**
     * Waits until the deployment's JVMs number {@code np} (one per rank, or per -ppn ranks), or no more can come, or
     * {@code seconds} pass; returns a node of each, in the descriptor's order.
     */
    private static List<Node> oneNodePerJvm(final Deployment d, final int np, final long seconds)
            throws InterruptedException {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            // Settled before the nodes are read: a node arriving between the two would otherwise be missed.
            final boolean settled = d.virtualNodes().stream().allMatch(VirtualNode::isSettled);
            final Map<String, Node> jvms = new LinkedHashMap<>();
            for (final VirtualNode vn : d.virtualNodes()) {
                for (final Node n : vn.nodes()) {
                    jvms.putIfAbsent(n.runtimeId(), n);
                }
            }
            if (jvms.size() >= np || settled || System.nanoTime() > end) {
                return new ArrayList<>(jvms.values()).subList(0, Math.min(np, jvms.size()));
            }
            Thread.sleep(100);
        }
    }

    /**
     * A rank in a deployed JVM: alive until that JVM's runtime is lost, which ends it well only after MPI.Finalize
     * and a System.exit(0); the deployment stops the JVM at the end.
     */
    private static final class DeployedRank implements JvmJob.RankJvm {
        final String runtimeId;
        volatile String lostBecause;
        /** The status of the System.exit its JVM said it ends by, or null. */
        volatile Integer exitStatus;

        DeployedRank(final String runtimeId) {
            this.runtimeId = runtimeId;
        }

        @Override
        public boolean isAlive() {
            return lostBecause == null;
        }

        @Override
        public String endedBecause(final boolean finalized) {
            final Integer status = exitStatus;
            if (lostBecause == null || finalized && status != null && status == 0) {
                return null;
            }
            if (status != null) {
                return "it called System.exit(" + status + ")" + (finalized ? "" : " before MPI.Finalize");
            }
            return "its JVM was lost (" + lostBecause + ")"
                    + (finalized ? " after MPI.Finalize" : " before the rank" + " finished");
        }

        @Override
        public boolean awaitEnd(final long seconds) {
            return true; // its JVM stays until the deployment is closed
        }

        @Override
        public void stop() {
            // the deployment stops its JVM when the job ends
        }
    }
}
