package org.troupe.tests.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.troupe.deploy.Deployment;

/**
 * What descriptors/multi-cluster.xml needs on this host: a one-node Slurm cluster (with its PBS commands) and two
 * OpenSSH front-ends on loopback, a user key they accept, and an SSH directory of the tests' own for known_hosts.
 * Only one may be up at a time: Slurm's configuration is the machine's. A JUnit extension: started once before the
 * tests of a class, in a temporary directory of its own, and stopped (the directory deleted) after them, whether
 * they passed or failed; the class is skipped where sshd or Slurm is missing or this is not root.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final Clusters clusters = new Clusters();
 * }</pre>
 */
public final class Clusters implements BeforeAllCallback, AfterAllCallback {
    private Path dir;
    private SlurmCluster slurm;
    private Sshd frontendA;
    private Sshd frontendB;

    @Override
    public void beforeAll(final ExtensionContext context) throws Exception {
        Sshd.assumeInstalled();
        dir = Files.createTempDirectory("troupe-clusters-");
        slurm = SlurmCluster.start(dir.resolve("slurm"));
        frontendA = Sshd.start(dir.resolve("frontend-a"), key());
        frontendB = Sshd.start(dir.resolve("frontend-b"), key());
        System.setProperty(Deployment.SSH_DIR_PROP_NAME, dir.resolve("ssh").toString());
    }

    /** Stops what was started, the last first, each even if another fails to stop, then deletes the directory. */
    @Override
    public void afterAll(final ExtensionContext context) throws Exception {
        System.clearProperty(Deployment.SSH_DIR_PROP_NAME);
        Exception failed = null;
        for (final AutoCloseable c : new AutoCloseable[] {frontendB, frontendA, slurm}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        frontendB = null;
        frontendA = null;
        slurm = null;
        if (failed != null) {
            throw failed; // the directory is kept, with the daemons' logs
        }
        if (dir != null) {
            delete(dir);
            dir = null;
        }
    }

    private static void delete(final Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (final Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    public Path key() {
        return dir.resolve("user/id_ed25519");
    }

    /** The known_hosts file of the tests' own SSH directory. */
    public Path knownHosts() {
        return dir.resolve("ssh/known_hosts");
    }

    public int portA() {
        return frontendA.port();
    }

    public int portB() {
        return frontendB.port();
    }

    /** The variables of descriptors/multi-cluster.xml for these servers, new host keys recorded. */
    public Map<String, String> multiClusterVariables() {
        return Map.of(
                "hostA",
                "127.0.0.1",
                "portA",
                String.valueOf(portA()),
                "hostB",
                "127.0.0.1",
                "portB",
                String.valueOf(portB()),
                "key",
                key().toString(),
                "knownHosts",
                "accept-new",
                "vn",
                "jem3d");
    }
}
