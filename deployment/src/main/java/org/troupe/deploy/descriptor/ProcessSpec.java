package org.troupe.deploy.descriptor;

import java.util.List;
import java.util.Map;

/**
 * A process of a descriptor's infrastructure, checked: a {@link Jvm} (JVMs that become nodes) ends every chain;
 * a {@link Launcher} starts the process it refers to, here ({@link Local}), on another host ({@link Ssh}), or on
 * the nodes a batch system books ({@link Pbs}, {@link Slurm}).
 */
public sealed interface ProcessSpec {
    /** The id the descriptor gives it. */
    String id();

    /** How many nodes the chain from this process offers when everything starts. */
    int nodesOffered();

    /** One line for a plan: what this step does. */
    String describe();

    /**
     * This chain changed to offer at least {@code n} nodes, for more of the same while a deployment runs: the count
     * of its JVMs, or of its batch job's tasks or nodes; everything else as the descriptor says.
     */
    ProcessSpec withNodes(int n);

    private static int atLeast(final int n, final int per) {
        return Math.max(1, (n + per - 1) / per);
    }

    /** A process that starts another one. */
    sealed interface Launcher extends ProcessSpec {
        ProcessSpec child();
    }

    /**
     * {@code count} JVMs, each offering {@code nodesPerJvm} nodes.
     *
     * @param javaHome the JDK to run, or empty for the launching side's own
     * @param classpath the class path, or empty for the launching side's own
     */
    record Jvm(
            String id,
            String javaHome,
            String classpath,
            List<String> jvmOptions,
            Map<String, String> env,
            int count,
            int nodesPerJvm)
            implements ProcessSpec {
        @Override
        public int nodesOffered() {
            return count * nodesPerJvm;
        }

        @Override
        public Jvm withNodes(final int n) {
            return new Jvm(id, javaHome, classpath, jvmOptions, env, atLeast(n, nodesPerJvm), nodesPerJvm);
        }

        @Override
        public String describe() {
            return "jvm '" + id + "': " + count + " JVM" + (count == 1 ? "" : "s") + " x " + nodesPerJvm + " node"
                    + (nodesPerJvm == 1 ? "" : "s") + (javaHome.isEmpty() ? "" : ", java " + javaHome)
                    + (jvmOptions.isEmpty() ? "" : ", options " + String.join(" ", jvmOptions));
        }
    }

    /** Forks the child here. */
    record Local(String id, ProcessSpec child) implements Launcher {
        @Override
        public int nodesOffered() {
            return child.nodesOffered();
        }

        @Override
        public Local withNodes(final int n) {
            return new Local(id, child.withNodes(n));
        }

        @Override
        public String describe() {
            return "local '" + id + "': on this host";
        }
    }

    /** Runs the child on {@code host} over SSH. */
    record Ssh(
            String id,
            String host,
            int port,
            String user,
            String privateKey,
            KnownHosts knownHosts,
            boolean stage,
            ProcessSpec child)
            implements Launcher {
        @Override
        public int nodesOffered() {
            return child.nodesOffered();
        }

        @Override
        public Ssh withNodes(final int n) {
            return new Ssh(id, host, port, user, privateKey, knownHosts, stage, child.withNodes(n));
        }

        @Override
        public String describe() {
            return "ssh '" + id + "': " + (user.isEmpty() ? "" : user + "@") + host + ":" + port + " (known hosts: "
                    + knownHosts.xmlName() + (privateKey.isEmpty() ? "" : ", key " + privateKey)
                    + (stage ? ", jars staged" : "") + ")";
        }
    }

    /** Books {@code nodes} nodes with qsub and starts the child once on each. */
    record Pbs(String id, int nodes, int processorsPerNode, String walltime, String queue, ProcessSpec child)
            implements Launcher {
        @Override
        public int nodesOffered() {
            return nodes * child.nodesOffered();
        }

        /** As many booked nodes as it takes, each starting the child as the descriptor says. */
        @Override
        public Pbs withNodes(final int n) {
            return new Pbs(id, atLeast(n, child.nodesOffered()), processorsPerNode, walltime, queue, child);
        }

        @Override
        public String describe() {
            return "pbs '" + id + "': qsub nodes=" + nodes + ":ppn=" + processorsPerNode + " walltime=" + walltime
                    + (queue.isEmpty() ? "" : " queue " + queue) + ", the next step once per node";
        }
    }

    /** Books {@code nodes} nodes with sbatch and starts the child once per task with srun. */
    record Slurm(String id, int nodes, int tasks, String time, String partition, ProcessSpec child)
            implements Launcher {
        @Override
        public int nodesOffered() {
            return tasks * child.nodesOffered();
        }

        /** As many tasks as it takes, on no more booked nodes than the descriptor's (nor than tasks). */
        @Override
        public Slurm withNodes(final int n) {
            final int t = atLeast(n, child.nodesOffered());
            return new Slurm(id, Math.min(nodes, t), t, time, partition, child);
        }

        @Override
        public String describe() {
            return "slurm '" + id + "': sbatch --nodes=" + nodes + " --ntasks=" + tasks + " --time=" + time
                    + (partition.isEmpty() ? "" : " --partition=" + partition) + ", the next step once per task";
        }
    }

    /** What an SSH launcher does with host keys. */
    enum KnownHosts {
        /** Only hosts already in known_hosts. */
        STRICT("strict"),
        /** New hosts are added; a changed key is refused. */
        ACCEPT_NEW("accept-new"),
        /** Any key (test set-ups only). */
        IGNORE("ignore");

        private final String xmlName;

        KnownHosts(final String xmlName) {
            this.xmlName = xmlName;
        }

        public String xmlName() {
            return xmlName;
        }

        static KnownHosts of(final String xml) {
            for (final KnownHosts k : values()) {
                if (k.xmlName.equals(xml)) {
                    return k;
                }
            }
            return STRICT;
        }
    }
}
