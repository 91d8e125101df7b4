package org.troupe.tests.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.DeploymentFailure;
import org.troupe.deploy.VirtualNode;
import org.troupe.tests.NodeJvms;
import org.troupe.tests.core.Worker;

/** Deployments over SSH to a real OpenSSH server on 127.0.0.1 (the node JVMs run on this machine, as that user). */
class SshDeploymentTest {
    private static final Path SSH = Path.of("../descriptors/ssh.xml");
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final Path REMOTE_HOME = Path.of(System.getProperty("user.home"), ".troupe");

    @TempDir
    static Path dir;

    private static Sshd sshd;
    private static TroupeRuntime runtime;

    @BeforeAll
    static void start() throws Exception {
        sshd = Sshd.start(dir.resolve("sshd"), dir.resolve("user/id_ed25519"));
        runtime = NodeJvms.startParent();
    }

    @AfterAll
    static void stop() throws Exception {
        System.clearProperty(Deployment.SSH_DIR_PROP_NAME);
        if (runtime != null) {
            runtime.shutdown();
        }
        if (sshd != null) {
            sshd.close();
        }
    }

    /** The variables of ssh.xml for the test server, the test key, and a known_hosts of its own in {@code sshDir}. */
    private static Map<String, String> vars(final Path sshDir, final String knownHosts, final String... more) {
        System.setProperty(Deployment.SSH_DIR_PROP_NAME, sshDir.toString());
        final Map<String, String> v = new HashMap<>(Map.of(
                "host",
                "127.0.0.1",
                "port",
                String.valueOf(sshd.port()),
                "key",
                dir.resolve("user/id_ed25519").toString(),
                "knownHosts",
                knownHosts,
                "jvms",
                "2",
                "vn",
                "jem3d"));
        for (int i = 0; i < more.length; i += 2) {
            v.put(more[i], more[i + 1]);
        }
        return v;
    }

    @Test
    void jvmsStartedOverSshCallHomeAndEverythingIsRemovedOnClose() throws Exception {
        final Path sshDir = dir.resolve("ssh-1");
        final String id;
        try (Deployment d = Deployment.load(SSH, vars(sshDir, "accept-new")).start()) {
            id = d.id();
            final List<Node> nodes = d.virtualNode("jem3d").waitForNodes(2, WAIT);
            assertEquals(2, nodes.size(), d.progress() + " " + d.failures());
            for (final Node n : nodes) {
                assertTrue(
                        ActiveObjects.newActive(Worker.class, new Object[0], n).pid()
                                != ProcessHandle.current().pid());
            }
            assertTrue(
                    Files.readString(sshDir.resolve("known_hosts")).contains("[127.0.0.1]:" + sshd.port()),
                    "accept-new records the new host's key");
            final Path secret = REMOTE_HOME.resolve("deployments").resolve(id).resolve("jem3d-1.secret");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)));
            assertTrue(Leftovers.processes(id).stream()
                    .filter(c -> c.contains("NodeMain"))
                    .noneMatch(c -> c.contains(runtime.config().secret())));
        }
        assertFalse(Files.exists(REMOTE_HOME.resolve("deployments").resolve(id)), "the host's files are removed");
        Leftovers.assertNothingLeft(id);
    }

    @Test
    void theLinesOfJvmsStartedOverSshComeHomeAfterTheirNames() throws Exception {
        final String id;
        try (RelayedOutput output = new RelayedOutput();
                Deployment d = Deployment.load(SSH, vars(dir.resolve("ssh-relay"), "accept-new"))
                        .start()) {
            id = d.id();
            assertEquals(2, d.virtualNode("jem3d").waitForNodes(2, WAIT).size(), d.progress() + " " + d.failures());
            assertTrue(
                    output.awaitErrLines(
                            "\\[jem3d-1] .*NodeMain - Nodes \\[" + id + ".* registered with .*",
                            "\\[jem3d-2] .*NodeMain - Nodes \\[" + id + ".* registered with .*"),
                    output.errLines().toString());
            assertTrue(
                    output.errLines().stream().noneMatch(l -> l.contains("WARNING")),
                    output.errLines().toString());
        }
        Leftovers.assertNothingLeft(id);
    }

    /**
     * The SSH session is lost: the node JVM, linked by its own connection, serves on. Then it stops answering
     * (frozen: it can neither be released through its link nor notice anything): close() opens a new session to
     * stop its script, which kills it.
     */
    @Test
    void aLostSessionIsOpenedAgainToStopAJvmThatNoLongerAnswers() throws Exception {
        final String id;
        try (Deployment d = Deployment.load(SSH, vars(dir.resolve("ssh-lost"), "accept-new", "jvms", "1"))
                .start()) {
            id = d.id();
            final List<Node> nodes = d.virtualNode("jem3d").waitForNodes(1, WAIT);
            assertEquals(1, nodes.size(), d.progress() + " " + d.failures());
            sshd.cutSessions();
            assertEquals(
                    49,
                    ActiveObjects.newActive(Worker.class, new Object[0], nodes.getFirst())
                            .compute(7)
                            .value(),
                    "the JVM runs on without the session");
            final List<Long> jvms = ProcessHandle.allProcesses()
                    .filter(p -> Leftovers.commandLine(p).contains(id)
                            && Leftovers.commandLine(p).contains("NodeMain"))
                    .map(ProcessHandle::pid)
                    .toList();
            assertEquals(1, jvms.size(), "one node JVM");
            assertEquals(
                    0,
                    new ProcessBuilder("kill", "-STOP", String.valueOf(jvms.getFirst()))
                            .start()
                            .waitFor());
        }
        Leftovers.assertNothingLeft(id);
    }

    /**
     * Starts from an empty cache, the user's own set aside and put back after: a cache an earlier run of the same
     * build filled already holds every file, and would copy nothing.
     */
    @Test
    void aStagedClassPathIsCopiedOnceAndReused() throws Exception {
        final Path cache = REMOTE_HOME.resolve("cache");
        final Path aside =
                REMOTE_HOME.resolve("cache-aside-" + ProcessHandle.current().pid());
        final boolean had = Files.exists(cache);
        if (had) {
            Files.move(cache, aside);
        }
        try {
            final Map<Path, FileTime> first = deployStaged();
            assertFalse(first.isEmpty(), "the class path was copied");
            assertEquals(first, deployStaged(), "the second deployment copies nothing");
        } finally {
            for (final Path p : listing(cache).keySet()) {
                Files.delete(p);
            }
            Files.deleteIfExists(cache);
            if (had) {
                Files.move(aside, cache);
            }
        }
    }

    private static Map<Path, FileTime> deployStaged() throws Exception {
        final String id;
        try (Deployment d = Deployment.load(SSH, vars(dir.resolve("ssh-2"), "accept-new", "stage", "true", "jvms", "1"))
                .start()) {
            id = d.id();
            final List<Node> nodes = d.virtualNode("jem3d").waitForNodes(1, WAIT);
            assertEquals(1, nodes.size(), d.progress() + " " + d.failures());
            // the worker's class comes from the staged copy of this module's test classes
            assertEquals(
                    49,
                    ActiveObjects.newActive(Worker.class, new Object[0], nodes.getFirst())
                            .compute(7)
                            .value());
            assertTrue(
                    Leftovers.processes(id).stream()
                            .filter(c -> c.contains("NodeMain"))
                            .allMatch(
                                    c -> c.contains(REMOTE_HOME.resolve("cache").toString())),
                    "the JVM uses the copies");
        }
        Leftovers.assertNothingLeft(id);
        return listing(REMOTE_HOME.resolve("cache"));
    }

    private static Map<Path, FileTime> listing(final Path dir) throws IOException {
        final Map<Path, FileTime> files = new TreeMap<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                for (final Path p : s.toList()) {
                    files.put(p, Files.getLastModifiedTime(p));
                }
            }
        }
        return files;
    }

    /** Deploys ssh-and-local.xml, whose SSH step fails as {@code vars} make it; returns that failure. */
    private static DeploymentFailure sshFails(final Map<String, String> vars) throws Exception {
        final String id;
        final DeploymentFailure failure;
        try (Deployment d = Deployment.load(Path.of("src/test/resources/deploy/ssh-and-local.xml"), vars)
                .start()) {
            id = d.id();
            final VirtualNode vn = d.virtualNode("jem3d");
            final List<Node> nodes = vn.waitForNodes(2, WAIT);
            assertTrue(vn.isSettled(), d.progress());
            assertEquals(1, nodes.size(), "the local JVM is used: " + d.progress());
            assertEquals(1, d.failures().size(), d.failures().toString());
            failure = d.failures().getFirst();
            assertEquals("jem3d-2", failure.launch());
            assertEquals(1, failure.nodesMissing());
            assertTrue(failure.chain().startsWith("ssh 'remote'"), failure.chain());
        }
        Leftovers.assertNothingLeft(id);
        return failure;
    }

    @Test
    void aMissingKeyFileIsNamed() throws Exception {
        final String reason = sshFails(vars(dir.resolve("ssh-3"), "accept-new", "key", "/nonexistent/id_troupe"))
                .reason();
        assertTrue(reason.contains("/nonexistent/id_troupe does not exist"), reason);
    }

    @Test
    void aKeyTheHostRefusesIsAnAuthenticationFailure() throws Exception {
        final Path stranger = dir.resolve("stranger/id_ed25519");
        Sshd.keygen(stranger);
        final String reason = sshFails(vars(dir.resolve("ssh-4"), "accept-new", "key", stranger.toString()))
                .reason();
        assertTrue(reason.contains("authentication failed"), reason);
    }

    @Test
    void anUnreachableHostIsSaidSo() throws Exception {
        final String reason = sshFails(
                        vars(dir.resolve("ssh-5"), "accept-new", "port", String.valueOf(Sshd.freePort())))
                .reason();
        assertTrue(reason.contains("host unreachable"), reason);
    }

    @Test
    void anUnknownHostKeyIsRefusedUnderTheStrictPolicy() throws Exception {
        final Path sshDir = Files.createDirectories(dir.resolve("ssh-6"));
        Files.writeString(sshDir.resolve("known_hosts"), "");
        final String reason = sshFails(vars(sshDir, "strict")).reason();
        assertTrue(
                reason.contains("not in " + sshDir.resolve("known_hosts")) && reason.contains("ssh-keyscan"), reason);
    }

    @Test
    void aChangedHostKeyIsRefused() throws Exception {
        final Path sshDir = Files.createDirectories(dir.resolve("ssh-7"));
        final Path other = dir.resolve("other-host/key");
        Sshd.keygen(other);
        Files.writeString(
                sshDir.resolve("known_hosts"),
                "[127.0.0.1]:" + sshd.port() + " "
                        + Files.readString(Path.of(other + ".pub")).strip().replaceFirst(" [^ ]*$", "") + "\n");
        final String reason = sshFails(vars(sshDir, "accept-new")).reason();
        assertTrue(reason.contains("key has changed"), reason);
    }
}
