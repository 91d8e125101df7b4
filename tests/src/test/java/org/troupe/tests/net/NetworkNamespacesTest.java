package org.troupe.tests.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.troupe.core.NodeMain;
import org.troupe.tests.NodeJvms;

/**
 * Runtimes on separate network stacks, as on separate hosts: a parent in one network namespace, node JVMs in two
 * others, each with an address of its own on the test's bridge ({@link Netns}). Skipped (one line) without root or
 * {@code ip netns}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NetworkNamespacesTest {
    private static final String SUBNET = "10.213.18";
    private static final Path LOGS = Path.of("target", "node-logs", "NetworkNamespacesTest");
    private static final long WAIT_SECONDS = 90;
    /** What a runtime of these tests names another by: {@code Hop#3@troupe://10.213.18.2:40123/n1}. */
    private static final Pattern NAMED_AT = Pattern.compile("@troupe://([^/ ]+)/");

    private static Netns net;

    @BeforeAll
    static void namespaces() throws IOException {
        final String unavailable = Netns.unavailable();
        Assumptions.assumeTrue(unavailable == null, unavailable);
        net = new Netns(SUBNET, 3);
    }

    @AfterAll
    static void removeNamespaces() {
        if (net != null) {
            net.close();
        }
    }

    /** The deployment's secret, the tests' classes, quick heartbeats; no address setting. */
    private static Map<String, String> deployment() {
        return Map.of(
                "TROUPE_CORE_SECRET",
                NodeJvms.SECRET,
                "TROUPE_SERIALIZATION_ALLOWEDPACKAGES",
                "org.troupe.tests",
                "TROUPE_CORE_HEARTBEATMILLIS",
                "200",
                "TROUPE_CORE_PEERTIMEOUTMILLIS",
                "3000");
    }

    private static Map<String, String> deploymentAnd(final String key, final String value) {
        final Map<String, String> env = new HashMap<>(deployment());
        env.put(key, value);
        return env;
    }

    /**
     * The case: a parent bound to every interface (it announced 0.0.0.0 before), two node JVMs on two other
     * hosts with no address setting at all. They register, the parent and the nodes call each other, node 1 calls
     * node 2 through the reference it got from the parent, and node 2 calls node 1 back through the one node 1 sent
     * it; every address anyone was told is the namespace's own, never loopback or a wildcard.
     */
    @Test
    void shouldCallBothWaysAndBetweenNodesOnOtherHostsWithNoAddressSettings() throws Exception {
        final Map<String, String> facts = hops("plain", List.of(), deployment());
        checkAddresses(facts);
        for (final String node : List.of("n1", "n2")) {
            final String log = Files.readString(LOGS.resolve("plain-" + node + ".log"));
            final String own = net.address(node.equals("n1") ? 1 : 2);
            assertTrue(
                    log.contains("listening on " + own + ", the address of this host that routes to the parent"), log);
        }
    }

    /**
     * A node's bind address reaches NodeMain as a system property (node 1) and from the environment (node 2): both
     * listen on every interface, and announce, to each peer, the address of their connection.
     */
    @Test
    void shouldTakeTheNodesBindAddressFromASystemPropertyOrTheEnvironment() throws Exception {
        final Map<String, String> facts = hops(
                "wildcard",
                List.of("-Dtroupe.core.bindAddress=0.0.0.0"),
                deploymentAnd("TROUPE_CORE_BINDADDRESS", "0.0.0.0"));
        checkAddresses(facts);
        for (final String node : List.of("n1", "n2")) {
            final String log = Files.readString(LOGS.resolve("wildcard-" + node + ".log"));
            assertTrue(log.contains("listens on 0.0.0.0:") && log.contains("(every interface)"), log);
        }
    }

    /**
     * The launcher's default: it listens on loopback, and announces it. A node JVM on another host cannot reach it,
     * and says so at once (no timeout: nothing listens there), naming the setting to change.
     */
    @Test
    void shouldFailFastNamingTheSettingWhenTheParentListensOnLoopbackOnly() throws Exception {
        final Path parentLog = LOGS.resolve("loopback-parent.log");
        final Process parent = net.java(0, List.of(), deployment(), parentLog, HopParent.class.getName());
        try {
            final String listen = Facts.await(parent, parentLog, "listen", WAIT_SECONDS, "the parent");
            assertTrue(listen.startsWith("127.0.0.1:"), "a runtime started alone listens on loopback: " + listen);
            final Path nodeLog = LOGS.resolve("loopback-n1.log");
            final Process node = net.java(
                    1, List.of(), deployment(), nodeLog, NodeMain.class.getName(), "--parent", listen, "--name", "n1");
            assertTrue(node.waitFor(WAIT_SECONDS, TimeUnit.SECONDS), "the node JVM gave up");
            final String log = Files.readString(nodeLog);
            assertEquals(2, node.exitValue(), log);
            assertTrue(
                    log.contains("could not register with their parent at " + listen)
                            && log.contains("Connection refused")
                            && log.contains(
                                    "the parent announced 127.0.0.1, a loopback address, which no other host can reach")
                            && log.contains(
                                    "start it with troupe.core.bindAddress=<an address of its host that this host"
                                            + " reaches> (or 0.0.0.0)"),
                    log);
        } finally {
            parent.destroyForcibly();
        }
    }

    /**
     * Runs {@link HopParent} bound to every interface in namespace 0 and node JVMs n1 and n2 in namespaces 1 and 2
     * (node 1 with the JVM options {@code n1Options}, node 2 with the environment {@code n2Env}); returns the facts
     * the parent printed, once everything has ended well.
     */
    private static Map<String, String> hops(
            final String tag, final List<String> n1Options, final Map<String, String> n2Env) throws Exception {
        final Path parentLog = LOGS.resolve(tag + "-parent.log");
        final Process parent = net.java(
                0,
                List.of(),
                deploymentAnd("TROUPE_CORE_BINDADDRESS", "0.0.0.0"),
                parentLog,
                HopParent.class.getName(),
                "n1",
                "n2");
        final String listen = Facts.await(parent, parentLog, "listen", WAIT_SECONDS, "the parent");
        final Process n1 = net.java(
                1,
                n1Options,
                deployment(),
                LOGS.resolve(tag + "-n1.log"),
                NodeMain.class.getName(),
                "--parent",
                listen,
                "--name",
                "n1");
        final Process n2 = net.java(
                2,
                List.of(),
                n2Env,
                LOGS.resolve(tag + "-n2.log"),
                NodeMain.class.getName(),
                "--parent",
                listen,
                "--name",
                "n2");
        final boolean ended = parent.waitFor(WAIT_SECONDS, TimeUnit.SECONDS);
        final String output = Files.readString(parentLog);
        if (!ended || parent.exitValue() != 0 || !output.contains("@ done")) {
            parent.destroyForcibly();
            fail("the parent " + (ended ? "failed" : "did not end") + ":\n" + output + "\n--- node 1:\n"
                    + Files.readString(LOGS.resolve(tag + "-n1.log")) + "\n--- node 2:\n"
                    + Files.readString(LOGS.resolve(tag + "-n2.log")));
        }
        for (final Process node : List.of(n1, n2)) {
            assertTrue(node.waitFor(WAIT_SECONDS, TimeUnit.SECONDS), "a node JVM outlived its parent");
            assertEquals(0, node.exitValue(), "a node JVM whose parent ended exits with 0");
        }
        return Facts.of(output);
    }

    /**
     * The parent is 10.213.18.1 to both nodes, node 1 is 10.213.18.2 and node 2 10.213.18.3 to everyone, and each
     * call was answered by the runtime it was meant for.
     */
    private static void checkAddresses(final Map<String, String> facts) {
        final String parentAt = facts.get("listen");
        assertTrue(
                parentAt.startsWith(net.address(0) + ":"),
                "where no connection tells, the host's address: " + parentAt);
        final String parentId = facts.get("parent");
        final String[] node1 = facts.get("node1").split(" ");
        final String[] node2 = facts.get("node2").split(" ");
        assertTrue(node1[0].startsWith(net.address(1) + ":"), "node 1 announced " + node1[0] + " to the parent");
        assertTrue(node2[0].startsWith(net.address(2) + ":"), "node 2 announced " + node2[0] + " to the parent");
        assertEquals(node1[1], facts.get("parent->1"));
        assertEquals(node2[1], facts.get("parent->2"));
        assertReached(facts.get("1->parent"), parentAt, parentId);
        assertReached(facts.get("2->parent"), parentAt, parentId);
        assertReached(facts.get("1->2"), node2[0], node2[1]);
        assertReached(facts.get("2->1"), node1[0], node1[1]);
        assertReached(facts.get("1->2->1"), node1[0], node1[1]);
        for (final Map.Entry<String, String> fact : facts.entrySet()) {
            assertFalse(
                    fact.getValue().matches(".*(127\\.[0-9.]+|0\\.0\\.0\\.0|\\[::1?\\]):[0-9].*"),
                    "announced as loopback or wildcard: " + fact);
        }
    }

    /** {@code fact} is {@code <how the caller named the callee> <the runtime that answered>}. */
    private static void assertReached(final String fact, final String address, final String runtimeId) {
        final Matcher m = NAMED_AT.matcher(fact);
        assertTrue(m.find(), fact);
        assertEquals(address, m.group(1), fact);
        assertTrue(fact.endsWith(" " + runtimeId), fact);
    }
}
