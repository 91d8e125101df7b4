package org.troupe.tests.deploy;

import java.nio.file.Path;
import java.util.Map;
import org.troupe.deploy.Deployment;

/**
 * What descriptors/multi-cluster.xml needs on this host: a one-node Slurm cluster (with its PBS commands) and two
 * OpenSSH front-ends on loopback, a user key they accept, and an SSH directory of the tests' own for known_hosts.
 * Only one may be up at a time: Slurm's configuration is the machine's.
 */
public final class Clusters implements AutoCloseable {
    private final Path dir;
    private final SlurmCluster slurm;
    private final Sshd frontendA;
    private final Sshd frontendB;

    private Clusters(final Path dir, final SlurmCluster slurm, final Sshd frontendA, final Sshd frontendB) {
        this.dir = dir;
        this.slurm = slurm;
        this.frontendA = frontendA;
        this.frontendB = frontendB;
    }

    /** Starts them under {@code dir}, or skips the test where sshd or Slurm is missing or this is not root. */
    public static Clusters start(final Path dir) throws Exception {
        Sshd.assumeInstalled();
        SlurmCluster slurm = SlurmCluster.start(dir.resolve("slurm"));
        Sshd a = null;
        try {
            a = Sshd.start(dir.resolve("frontend-a"), dir.resolve("user/id_ed25519"));
            Sshd b = Sshd.start(dir.resolve("frontend-b"), dir.resolve("user/id_ed25519"));
            System.setProperty(Deployment.SSH_DIR_PROP_NAME, dir.resolve("ssh").toString());
            return new Clusters(dir, slurm, a, b);
        } catch (Exception | Error e) {
            if (a != null) {
                a.close();
            }
            slurm.close();
            throw e;
        }
    }

    public Path key() {
        return dir.resolve("user/id_ed25519");
    }

    public int portA() {
        return frontendA.port();
    }

    public int portB() {
        return frontendB.port();
    }

    /** The variables of descriptors/multi-cluster.xml for these servers, new host keys recorded. */
    public Map<String, String> multiClusterVariables() {
        return Map.of("hostA", "127.0.0.1", "portA", String.valueOf(portA()), "hostB", "127.0.0.1", "portB",
            String.valueOf(portB()), "key", key().toString(), "knownHosts", "accept-new", "vn", "jem3d");
    }

    @Override
    public void close() throws Exception {
        System.clearProperty(Deployment.SSH_DIR_PROP_NAME);
        for (AutoCloseable c : new AutoCloseable[] {frontendB, frontendA, slurm}) {
            c.close();
        }
    }
}
