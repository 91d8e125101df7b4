package org.troupe.tests.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.deploy.DeployMain;
import org.troupe.tests.deploy.Leftovers;
import org.troupe.tests.deploy.Sshd;

/**
 * A deployment onto another host, as a new user would make it: the deploying JVM in one network namespace
 * (10.213.18.2), a real OpenSSH server in another (10.213.18.3), linked by the test's bridge ({@link Netns}); the
 * descriptor names the host by its address, and nobody sets an address of Troupe's. Skipped (one line) without root,
 * {@code ip netns} or OpenSSH's server.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SshNamespacesTest {
    private static final String SUBNET = "10.213.18";
    private static final int LAUNCHER = 1;
    private static final int REMOTE = 2;
    private static final Path LOGS = Path.of("target", "node-logs", "SshNamespacesTest");
    private static final long WAIT_SECONDS = 120;
    /** Where the deployments' directories are on the SSH host: its user is root, whose home this is too. */
    private static final Path DEPLOYMENTS = Path.of(System.getProperty("user.home"), ".troupe", "deployments");
    /** How a runtime names an object of another: {@code Hop#3@troupe://10.213.18.2:40123/n1}. */
    private static final Pattern NAMED_AT = Pattern.compile("@troupe://([^/ ]+)/");

    @TempDir
    static Path dir;

    private static Netns net;
    private static Sshd sshd;

    @BeforeAll
    static void namespaces() throws Exception {
        final String unavailable = Netns.unavailable();
        Assumptions.assumeTrue(unavailable == null, unavailable);
        Sshd.assumeInstalled();
        net = new Netns(SUBNET, 3);
        sshd = Sshd.startIn(net.name(REMOTE), net.address(REMOTE), dir.resolve("sshd"), key());
    }

    @AfterAll
    static void removeNamespaces() {
        if (sshd != null) {
            sshd.close();
        }
        if (net != null) {
            net.close();
        }
    }

    private static Path key() {
        return dir.resolve("user/id_ed25519");
    }

    /** The launcher's environment: the tests' classes, quick heartbeats, its own known_hosts; no address at all. */
    private static Map<String, String> launcherEnv() {
        return Map.of(
                "TROUPE_SERIALIZATION_ALLOWEDPACKAGES",
                "org.troupe.tests",
                "TROUPE_CORE_HEARTBEATMILLIS",
                "200",
                "TROUPE_CORE_PEERTIMEOUTMILLIS",
                "3000",
                "TROUPE_DEPLOY_SSHDIR",
                dir.resolve("ssh").toString());
    }

    /** A descriptor of virtual node hops: {@code localJvms} JVMs here and {@code remoteJvms} over SSH. */
    private static Path descriptor(final String name, final int localJvms, final int remoteJvms) throws IOException {
        final StringBuilder refs = new StringBuilder();
        final StringBuilder steps = new StringBuilder();
        if (localJvms > 0) {
            refs.append("<processRef id=\"here\"/>");
            steps.append("<local id=\"here\"><processRef id=\"localJvms\"/></local>\n")
                    .append("<jvm id=\"localJvms\" count=\"")
                    .append(localJvms)
                    .append("\"/>\n");
        }
        refs.append("<processRef id=\"remote\"/>");
        steps.append("<ssh id=\"remote\" host=\"")
                .append(net.address(REMOTE))
                .append("\" user=\"root\" privateKey=\"")
                .append(key())
                .append("\" knownHosts=\"accept-new\"><processRef id=\"remoteJvms\"/></ssh>\n")
                .append("<jvm id=\"remoteJvms\" count=\"")
                .append(remoteJvms)
                .append("\"><jvmOption>-Xmx256m</jvmOption>")
                .append("</jvm>\n");
        final Path file = dir.resolve(name + ".xml");
        Files.writeString(
                file,
                "<deployment xmlns=\"urn:troupe:deployment:1\">\n"
                        + "<virtualNodes><virtualNode name=\"hops\" capacity=\"" + (localJvms + remoteJvms)
                        + "\"/></virtualNodes>\n"
                        + "<mapping><map virtualNode=\"hops\">" + refs + "</map></mapping>\n"
                        + "<infrastructure>\n" + steps + "</infrastructure>\n</deployment>\n");
        return file;
    }

    /**
     * The issue's case, with nothing set: a local JVM and two JVMs over SSH. The launcher listens on the address
     * that routes to the SSH host and says so; the nodes register; the launcher and every node call each other, and
     * a node calls another back through a reference it was sent; every address anyone was told is a namespace's own,
     * never loopback or a wildcard. Closing leaves no process and no directory of the deployment.
     */
    @Test
    void jvmsOverSshAndHereCallEachOtherEveryWayWithNoAddressSettings() throws Exception {
        final Path log = LOGS.resolve("calls-launcher.log");
        final Process launcher = net.java(
                LAUNCHER,
                List.of(),
                launcherEnv(),
                log,
                DeployingLauncher.class.getName(),
                descriptor("calls", 1, 2).toString(),
                "calls");
        final String output = awaitEnd(launcher, log);
        final Map<String, String> facts = Facts.of(output);
        if (launcher.exitValue() != 0 || !facts.containsKey("done")) {
            fail("the launcher failed:\n" + output);
        }
        final String here = net.address(LAUNCHER);
        final String remote = net.address(REMOTE);
        final Matcher said = Pattern.compile("reaches other hosts \\(ssh 'remote' " + Pattern.quote(remote)
                        + "\\) and troupe.core.bindAddress is not set: this JVM listens on " + Pattern.quote(here)
                        + ", the"
                        + " address of this host that routes to them; its node JVMs dial " + Pattern.quote(here)
                        + " \\(port ([0-9]+)\\)")
                .matcher(output);
        assertTrue(said.find(), "one line says what was chosen and why:\n" + output);
        final String parentAt = here + ":" + said.group(1);
        final List<String[]> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodes.add(facts.get("node" + i).split(" "));
        }
        assertEquals(
                1,
                nodes.stream().filter(n -> n[0].startsWith(here + ":")).count(),
                "the local JVM listens where the remote ones reach it: " + facts);
        assertEquals(
                2,
                nodes.stream().filter(n -> n[0].startsWith(remote + ":")).count(),
                "the SSH host's JVMs announce its address: " + facts);
        for (int i = 0; i < 3; i++) {
            assertEquals(nodes.get(i)[1], facts.get("parent->" + i));
            assertReached(facts.get(i + "->parent"), parentAt, facts.get("parent"));
            for (int j = 0; j < 3; j++) {
                if (j != i) {
                    assertReached(facts.get(i + "->" + j), nodes.get(j)[0], nodes.get(j)[1]);
                }
            }
        }
        assertReached(facts.get("0->1->0"), nodes.get(0)[0], nodes.get(0)[1]);
        for (final Map.Entry<String, String> fact : facts.entrySet()) {
            assertFalse(
                    fact.getValue().matches(".*(127\\.[0-9.]+|0\\.0\\.0\\.0|\\[::1?\\]):[0-9].*"),
                    "announced as loopback or wildcard: " + fact);
        }
        assertEquals("[]", facts.get("closed"), "no failure");
        assertTrue(sessionsSoFar() > 0, "the server's log counts the sessions it accepted");
        assertNothingLeftOf(facts.get("id"));
        assertFalse(
                Files.exists(DEPLOYMENTS.resolve(facts.get("id"))),
                "a deployment with no failure removes its" + " directory on the host");
    }

    /** bin/deploy says, on its console, where it listens and why, and deploys with no address setting. */
    @Test
    void binDeploySaysWhereItListensAndWhy() throws Exception {
        final Path descriptor = descriptor("bin-deploy", 0, 1);
        final Path log = LOGS.resolve("bin-deploy.log");
        final Process deploy = net.java(
                LAUNCHER,
                List.of(),
                launcherEnv(),
                log,
                DeployMain.class.getName(),
                descriptor.toString(),
                "--run",
                DeployingLauncher.Nodes.class.getName());
        final String output = awaitEnd(deploy, log);
        assertEquals(0, deploy.exitValue(), output);
        assertTrue(
                Pattern.compile(
                                "^bin/deploy: "
                                        + Pattern.quote(descriptor + " reaches other hosts (ssh 'remote' "
                                                + net.address(REMOTE)
                                                + ") and troupe.core.bindAddress is not set: this JVM listens on "
                                                + net.address(LAUNCHER)
                                                + ", the address of this host that routes to them; its node JVMs dial "
                                                + net.address(LAUNCHER) + " (port ")
                                        + "[0-9]+\\)$",
                                Pattern.MULTILINE)
                        .matcher(output)
                        .find(),
                output);
        assertEquals("1", Facts.of(output).get("nodes"), output);
    }

    /**
     * A launcher told to listen on loopback cannot be reached from the SSH host: the deployment fails at once,
     * before any SSH connection, naming the setting and the value to try; bin/deploy --check says the same, and
     * without the setting prints where each launch's JVMs will dial.
     */
    @Test
    void aLoopbackLauncherFailsAtOnceNamingTheSettingAndCheckSaysWhereJvmsDial() throws Exception {
        final Path descriptor = descriptor("loopback", 1, 1);
        final List<String> loopback = List.of("-Dtroupe.core.bindAddress=127.0.0.1");
        final String advice = descriptor + " reaches other hosts (ssh 'remote' "
                + net.address(REMOTE) + "), which cannot reach this JVM at 127.0.0.1: troupe.core.bindAddress=127.0.0.1"
                + " makes it listen there; set troupe.core.bindAddress=" + net.address(LAUNCHER)
                + " (the address of this"
                + " host that routes to ssh 'remote' " + net.address(REMOTE) + "), or 0.0.0.0 for every interface, or"
                + " leave it unset for the deployment to choose";
        final long sessionsBefore = sessionsSoFar();
        final Path log = LOGS.resolve("loopback-launcher.log");
        final Process launcher = net.java(
                LAUNCHER,
                loopback,
                launcherEnv(),
                log,
                DeployingLauncher.class.getName(),
                descriptor.toString(),
                "calls");
        final String output = awaitEnd(launcher, log);
        assertEquals(2, launcher.exitValue(), output);
        assertEquals(advice, Facts.of(output).get("refused"), output);
        assertEquals(sessionsBefore, sessionsSoFar(), "refused before any SSH connection");

        final Path checkLog = LOGS.resolve("loopback-check.log");
        final Process check = net.java(
                LAUNCHER,
                loopback,
                launcherEnv(),
                checkLog,
                DeployMain.class.getName(),
                descriptor.toString(),
                "--check");
        final String checked = awaitEnd(check, checkLog);
        assertEquals(2, check.exitValue(), checked);
        assertTrue(checked.contains("bin/deploy: cannot deploy: " + advice), checked);

        final Path planLog = LOGS.resolve("plan.log");
        final Process plan = net.java(
                LAUNCHER,
                List.of(),
                launcherEnv(),
                planLog,
                DeployMain.class.getName(),
                descriptor.toString(),
                "--check");
        final String planned = awaitEnd(plan, planLog);
        assertEquals(0, plan.exitValue(), planned);
        assertEquals(
                2,
                planned.split("    its node JVMs dial " + Pattern.quote(net.address(LAUNCHER)) + "\n", -1).length - 1,
                "both launches, the local one too: " + planned);
        assertTrue(
                planned.contains("address: " + descriptor + " reaches other hosts (ssh 'remote' "
                        + net.address(REMOTE) + ") and troupe.core.bindAddress is not set: this JVM listens on "
                        + net.address(LAUNCHER)),
                planned);
    }

    /**
     * The issue's network cut: the SSH host is cut off until the launcher has lost both its JVMs, then linked again,
     * so that the JVM script, whose JVMs exited with their parent gone, ends and says so over the SSH session that
     * held. The launch has failed: its logs stay on the host (they were deleted), the failures name the lost JVMs,
     * and closing says where the logs are and leaves no process.
     */
    @Test
    void aNetworkCutKeepsTheLogsOfTheLostJvmsAndReportsThem() throws Exception {
        final Path log = LOGS.resolve("cut-launcher.log");
        final Process launcher = net.java(
                LAUNCHER,
                List.of(),
                launcherEnv(),
                log,
                DeployingLauncher.class.getName(),
                descriptor("cut", 0, 2).toString(),
                "cut");
        String id = null;
        try {
            id = Facts.await(launcher, log, "id", WAIT_SECONDS, "the launcher");
            Facts.await(launcher, log, "node1", WAIT_SECONDS, "the launcher");
            net.link(REMOTE, false);
            final String lost = Facts.await(launcher, log, "lost", WAIT_SECONDS, "the launcher");
            net.link(REMOTE, true);
            assertEquals(2, lost.split("was lost", -1).length - 1, "both JVMs are reported lost: " + lost);
            // the JVMs exit (their parent is gone), their script ends, and the launch, told so, lets go of the host:
            // then only the SSH server is left there
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (!net.pids(REMOTE).equals(List.of(sshd.pid())) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(List.of(sshd.pid()), net.pids(REMOTE), "the launch let go of the host");
            final Path logs = DEPLOYMENTS.resolve(id).resolve("logs");
            assertTrue(Files.isDirectory(logs), "the launch failed: its logs stay on the host, in " + logs);
            try (Stream<Path> files = Files.list(logs)) {
                assertEquals(
                        2,
                        files.filter(f -> f.getFileName().toString().matches("hops-[12]\\.log"))
                                .count(),
                        "the lost JVMs' logs are kept in " + logs);
            }
            try (OutputStream in = launcher.getOutputStream()) {
                in.write("close\n".getBytes(StandardCharsets.UTF_8));
            }
            final String output = awaitEnd(launcher, log);
            assertEquals(0, launcher.exitValue(), output);
            assertTrue(
                    output.contains("Deployment " + id + " closed; its logs are kept in " + logs + " on ssh root@"
                            + net.address(REMOTE) + ":22"),
                    "where the logs are is said:\n" + output);
            assertEquals(2, Facts.of(output).get("closed").split("was lost", -1).length - 1, output);
            assertNothingLeftOf(id);
        } finally {
            net.link(REMOTE, true);
            launcher.destroyForcibly();
            if (id != null) {
                delete(DEPLOYMENTS.resolve(id));
            }
        }
    }

    /** No process names the deployment, here or in a namespace, once its JVMs had a moment to exit. */
    private static void assertNothingLeftOf(final String id) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Leftovers.processes(id).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(List.of(), Leftovers.processes(id), "processes of deployment " + id + " still running");
    }

    /** The SSH sessions the server accepted so far, from its log. */
    private static long sessionsSoFar() throws IOException {
        return Files.readString(sshd.dir().resolve("sshd.log"))
                .lines()
                .filter(l -> l.startsWith("Accepted "))
                .count();
    }

    /** {@code fact} is {@code <how the caller named the callee> <the runtime that answered>}. */
    private static void assertReached(final String fact, final String address, final String runtimeId) {
        final Matcher m = NAMED_AT.matcher(String.valueOf(fact));
        assertTrue(m.find(), fact);
        assertEquals(address, m.group(1), fact);
        assertTrue(fact.endsWith(" " + runtimeId), fact);
    }

    /** Waits (bounded) for {@code process} to end; returns its output. */
    private static String awaitEnd(final Process process, final Path log) throws Exception {
        if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("did not end within " + WAIT_SECONDS + " s:\n" + Files.readString(log));
        }
        return Files.readString(log);
    }

    private static void delete(final Path path) throws IOException {
        if (Files.exists(path)) {
            try (Stream<Path> files = Files.walk(path)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
