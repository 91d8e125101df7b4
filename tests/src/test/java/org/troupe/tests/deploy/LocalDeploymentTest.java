package org.troupe.tests.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.DeploymentFailure;
import org.troupe.deploy.VirtualNode;
import org.troupe.tests.Await;
import org.troupe.tests.ParentRuntime;
import org.troupe.tests.core.Worker;

/** Deployments on this host: node JVMs forked here, from the shipped local descriptor and from test ones. */
class LocalDeploymentTest {
    private static final Path LOCAL = Path.of("../descriptors/local.xml");
    private static final Duration WAIT = Duration.ofMinutes(2);

    @RegisterExtension
    static final ParentRuntime parent = new ParentRuntime();

    private static Path resource(final String name) {
        return Path.of("src/test/resources/deploy", name);
    }

    @Test
    void fourLocalJvmsFillTheVirtualNodeServeCallsAndAreStoppedOnClose() throws Exception {
        final String id;
        try (Deployment d = Deployment.load(LOCAL, Map.of("jvms", "4")).start()) {
            id = d.id();
            final VirtualNode vn = d.virtualNode("workers");
            final List<Node> told = new CopyOnWriteArrayList<>();
            vn.onNodeAttached(n -> {
                throw new IllegalStateException("a listener's bug costs neither the node nor the other listeners");
            });
            vn.onNodeAttached(told::add);
            final List<Node> nodes = vn.waitForNodes(4, WAIT);
            assertEquals(4, nodes.size(), d.progress() + " " + d.failures());
            // listeners are told just after the node shows, on the thread that registered it
            Await.until(Duration.ofSeconds(10), () -> told.size() >= 4, "the listeners to be told of the 4 nodes");
            assertEquals(Set.copyOf(nodes), Set.copyOf(told));
            assertEquals(4, told.size(), "each node told once");
            assertEquals(4, vn.wanted());
            assertEquals(4, nodes.stream().map(Node::runtimeId).distinct().count(), "one node per JVM");
            final Set<Long> pids = new HashSet<>();
            for (final Node n : nodes) {
                pids.add(ActiveObjects.newActive(Worker.class, new Object[0], n).pid());
            }
            assertEquals(4, pids.size(), "each worker answers from its own JVM");
            assertFalse(pids.contains(ProcessHandle.current().pid()));

            // the secret reaches the JVMs in a file only this user can read, never on a command line
            final List<String> commandLines = Leftovers.processes(id).stream()
                    .filter(c -> c.contains("NodeMain"))
                    .toList();
            assertEquals(4, commandLines.size(), commandLines.toString());
            final Matcher secretFile =
                    Pattern.compile("-Dtroupe\\.core\\.secretFile=(\\S+)").matcher(commandLines.getFirst());
            assertTrue(secretFile.find(), commandLines.getFirst());
            assertEquals(
                    "rw-------",
                    PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(secretFile.group(1)))));
            assertTrue(commandLines.stream()
                    .noneMatch(c -> c.contains(parent.runtime().config().secret())));
            assertEquals(List.of(), d.failures());
        }
        Leftovers.assertNothingLeft(id);
    }

    @Test
    void aVirtualNodeTakesNoMoreThanItsCapacityAndLetsTheRestGo() throws Exception {
        final String id;
        try (Deployment d = Deployment.load(resource("capacity.xml")).start()) {
            id = d.id();
            final VirtualNode vn = d.virtualNode("solver");
            vn.waitForNodes(3, WAIT); // returns once all three JVMs have called home
            assertTrue(vn.isSettled(), d.progress());
            assertEquals(2, vn.size());
            Await.until(Duration.ofSeconds(20), () -> jvmsOf(id) <= 2, "the JVM not needed to exit");
            assertEquals(2, jvmsOf(id), "the JVM not needed exits");
        }
        Leftovers.assertNothingLeft(id);
    }

    private static long jvmsOf(final String id) {
        return Leftovers.processes(id).stream()
                .filter(c -> c.contains("NodeMain"))
                .count();
    }

    @Test
    void anApplicationWantingMoreNodesThanExistGetsFewerLearnsHowManyAndAdapts() throws Exception {
        final String id;
        try (Deployment d = Deployment.load(resource("too-few.xml")).start()) {
            id = d.id();
            final VirtualNode vn = d.virtualNode("solver");
            final List<Node> nodes = vn.waitForNodes(6, WAIT);
            assertEquals(3, nodes.size(), d.progress());
            assertTrue(vn.isSettled(), "no more nodes can come, so the wait ended before its timeout");
            assertEquals(List.of(), vn.failures(), "fewer nodes than wanted is not a failure");
            // the application splits its work over the nodes it got
            final List<Worker> workers = nodes.stream()
                    .map(n -> ActiveObjects.newActive(Worker.class, new Object[0], n))
                    .toList();
            long sum = 0;
            for (int x = 1; x <= 300; x++) {
                sum += workers.get(x % workers.size()).compute(x).value();
            }
            assertEquals(300L * 301 * 601 / 6, sum);
        }
        Leftovers.assertNothingLeft(id);
    }

    @Test
    void jvmsThatCannotStartAreReportedWithTheirOutputAndTheRestProceeds() throws Exception {
        final String id;
        try (Deployment d = Deployment.load(resource("broken-jvm.xml")).start()) {
            id = d.id();
            final VirtualNode vn = d.virtualNode("solver");
            final List<Node> nodes = vn.waitForNodes(3, WAIT);
            assertTrue(vn.isSettled(), d.progress());
            assertEquals(1, nodes.size(), "the JVM that can start is used");
            final List<DeploymentFailure> failures = d.failures();
            assertEquals(2, failures.size(), "one per JVM: " + failures);
            for (final DeploymentFailure f : failures) {
                assertEquals("solver-1", f.launch());
                assertEquals(1, f.nodesMissing());
                assertTrue(
                        f.reason().contains("exited with code 1")
                                && f.reason().contains("Unrecognized VM option 'NoSuchTroupeTestOption'"),
                        f.reason());
            }
            assertTrue(d.progress().contains("1/3 nodes, 2 failed"), d.progress());
        }
        Leftovers.assertNothingLeft(id);
    }

    /** A java that starts the first JVM it is asked for, and fails the others with exit code 3. */
    static void javaStartingOnlyTheFirst(final Path fakeJava) throws IOException {
        final Path java = Files.createDirectories(fakeJava.resolve("bin")).resolve("java");
        Files.writeString(
                java,
                "#!/bin/sh\nif mkdir " + fakeJava.resolve("first") + " 2>/dev/null; then exec "
                        + Path.of(System.getProperty("java.home"), "bin", "java") + " \"$@\"; fi\n"
                        + "echo 'this JVM is out of luck' >&2\nexit 3\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
    }

    /**
     * Asserts that the second of two JVMs started by {@link #javaStartingOnlyTheFirst} is reported, with its log,
     * as soon as it fails: the wait for both ends then, with the first.
     */
    static void assertSecondJvmReported(final Deployment d, final VirtualNode vn) {
        assertEquals(1, vn.waitForNodes(2, WAIT).size(), d.progress());
        assertTrue(vn.isSettled(), "the wait ends with the failure, not with its timeout: " + d.progress());
        assertEquals(1, d.failures().size(), d.failures().toString());
        final DeploymentFailure f = d.failures().getFirst();
        assertEquals(1, f.nodesMissing());
        assertTrue(
                f.reason().contains("exited with code 3") && f.reason().contains("this JVM is out of luck"),
                f.reason());
    }

    @Test
    void oneFailingJvmAmongSeveralIsReportedAtOnceWithItsLog(@TempDir final Path fakeJava) throws Exception {
        javaStartingOnlyTheFirst(fakeJava);
        final String id;
        try (Deployment d = Deployment.load(resource("one-of-two.xml"), Map.of("fakeJavaHome", fakeJava.toString()))
                .start()) {
            id = d.id();
            final VirtualNode vn = d.virtualNode("solver");
            assertSecondJvmReported(d, vn);
            assertEquals(1, jvmsOf(id), "the other JVM runs on");
        }
        Leftovers.assertNothingLeft(id);
    }

    @Test
    void aJvmThatNeverCallsHomeTimesOutAndIsStoppedOnClose(@TempDir final Path fakeJava) throws Exception {
        final Path java = Files.createDirectories(fakeJava.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\nexec sleep 300\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        final String id;
        try (Deployment d = Deployment.load(resource("silent.xml"), Map.of("fakeJavaHome", fakeJava.toString()))
                .start()) {
            id = d.id();
            final VirtualNode vn = d.virtualNode("solver");
            assertEquals(List.of(), vn.waitForNodes(1, Duration.ofSeconds(3)));
            assertFalse(vn.isSettled());
            assertTrue(d.progress().startsWith("solver: 0/1 nodes [solver-1: JVMs started]"), d.progress());
            assertFalse(Leftovers.processes(id).isEmpty(), "the silent JVM runs until the deployment is closed");
        }
        Leftovers.assertNothingLeft(id);
    }

    @Test
    void aNodeJvmThatDiesLeavesItsVirtualNodeAndIsReported() throws Exception {
        final String id;
        try (Deployment d = Deployment.load(LOCAL, Map.of("jvms", "2")).start()) {
            id = d.id();
            final VirtualNode vn = d.virtualNode("workers");
            assertEquals(2, vn.waitForNodes(2, WAIT).size(), d.progress());
            ProcessHandle.allProcesses()
                    .filter(p -> Leftovers.commandLine(p).contains("NodeMain")
                            && Leftovers.commandLine(p).contains(id))
                    .findFirst()
                    .orElseThrow()
                    .destroyForcibly();
            Await.until(Duration.ofSeconds(20), () -> vn.size() <= 1, "the killed JVM's node to leave");
            assertEquals(1, vn.size());
            assertEquals(1, d.failures().size(), d.failures().toString());
            assertTrue(
                    d.failures().getFirst().reason().contains("was lost"),
                    d.failures().toString());
        }
        Leftovers.assertNothingLeft(id);
    }

    @Test
    void anApplicationThatExitsLeavesNothingRunning() throws Exception {
        final String id = runApp("exit", false);
        Leftovers.assertNothingLeft(id);
    }

    @Test
    void nodeJvmsExitByThemselvesWhenTheApplicationIsKilled() throws Exception {
        final String id = runApp("wait", true);
        Leftovers.assertNothingLeft(id);
    }

    /**
     * What the launcher is given, as -D on its command line or in its environment, reaches the node JVMs of this
     * host alike; but not where it listens: its port, inherited, would be taken by every node JVM (which then could
     * not listen), and each node JVM picks its own.
     */
    @Test
    void localNodeJvmsGetTheLaunchersSettingsButNotItsPort() throws Exception {
        final int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        final ProcessBuilder pb = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Dtroupe.core.callTimeoutMillis=7000",
                        "-cp",
                        System.getProperty("java.class.path"),
                        "org.troupe.deploy.DeployMain",
                        LOCAL.toString(),
                        "--run",
                        SettingsApp.class.getName(),
                        "troupe.core.callTimeoutMillis",
                        "troupe.core.port")
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("jvms", "2");
        pb.environment().put("TROUPE_SERIALIZATION_ALLOWEDPACKAGES", "org.troupe.tests");
        pb.environment().put("TROUPE_CORE_PORT", String.valueOf(port));
        final Process app = pb.start();
        try {
            final String out = new String(app.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(app.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, app.exitValue(), out);
            final List<String> nodes =
                    out.lines().filter(l -> l.startsWith("node ")).toList();
            assertEquals(2, nodes.size(), out);
            for (final String n : nodes) {
                // each node JVM is told port 0 (one of its own), whatever else would reach it
                assertTrue(n.matches("node 7000 0 127\\.0\\.0\\.1:[0-9]+") && !n.endsWith(":" + port), out);
            }
        } finally {
            app.destroyForcibly();
        }
    }

    /** Runs {@link ExitingApp} through bin/deploy's main in a JVM of its own; returns its deployment's id. */
    private static String runApp(final String mode, final boolean kill) throws Exception {
        final ProcessBuilder pb = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "org.troupe.deploy.DeployMain",
                        LOCAL.toString(),
                        "--run",
                        ExitingApp.class.getName(),
                        mode)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("jvms", "2");
        pb.environment().put("TROUPE_SERIALIZATION_ALLOWEDPACKAGES", "org.troupe.tests");
        pb.environment().put("TROUPE_CORE_HEARTBEATMILLIS", "200");
        pb.environment().put("TROUPE_CORE_PEERTIMEOUTMILLIS", "3000");
        final Process app = pb.start();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
            final String line = out.readLine();
            assertTrue(line != null && line.matches("deployment \\S+ nodes 2"), "the application printed " + line);
            final String id = line.split(" ")[1];
            assertEquals(2, jvmsOf(id));
            if (kill) {
                app.destroyForcibly();
            }
            assertTrue(app.waitFor(60, TimeUnit.SECONDS));
            assertEquals(kill ? 137 : 3, app.exitValue());
            return id;
        } finally {
            app.destroyForcibly();
        }
    }
}
