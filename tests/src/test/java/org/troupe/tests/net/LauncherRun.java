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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A run of {@link ClusterLauncher} in the launcher's namespace of a {@link NamespaceSlurm}, stepped by the test:
 * its facts, then (at {@link #closeAndCheck()}) its close, then its end. {@link #close()} kills it if it is still
 * there.
 */
final class LauncherRun implements AutoCloseable {
    static final Path LOGS = Path.of("target", "node-logs", "SlurmNamespaces");
    private static final long WAIT_SECONDS = 80;
    /** How a runtime names another: {@code Hop#3@troupe://10.213.20.3:40123/n1}. */
    private static final Pattern NAMED_AT = Pattern.compile("@troupe://([^/ ]+)/");

    private final NamespaceSlurm slurm;
    private final Path log;
    private final Process process;

    /** Starts {@code ClusterLauncher args}, its output to {@code tag}.log. */
    LauncherRun(final NamespaceSlurm slurm, final String tag, final String... args) throws IOException {
        this.slurm = slurm;
        this.log = LOGS.resolve(tag + ".log");
        this.process = slurm.launcher(log, ClusterLauncher.class.getName(), args);
    }

    /** A descriptor of the project's, by its absolute path (the launcher's directory is this test's). */
    static String descriptor(final String name) {
        return Path.of("..", "descriptors", name).toAbsolutePath().normalize().toString();
    }

    /**
     * Waits until the launcher says {@code key}; returns every fact it said. Fails, with its output, when it said
     * it failed, or ended or did not say it in time.
     */
    Map<String, String> await(final String key) throws IOException, InterruptedException {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (System.nanoTime() < end) {
            final Map<String, String> facts = facts();
            if (facts.containsKey("failed")) {
                fail("the launcher failed: " + facts.get("failed") + "\n" + output());
            }
            if (facts.containsKey(key)) {
                return facts;
            }
            if (!process.isAlive()) {
                fail("the launcher ended before it said " + key + ":\n" + output());
            }
            Thread.sleep(50);
        }
        fail("the launcher did not say " + key + " within " + WAIT_SECONDS + " s:\n" + output());
        return null;
    }

    /**
     * Lets the launcher close its deployment, and asserts that it had no failure until then; then that closing it
     * left nothing ({@link #assertNothingLeft()}) and that the launcher ends well.
     */
    void closeAndCheck() throws IOException, InterruptedException {
        closeAndCheck(null);
    }

    /** As {@link #closeAndCheck()}, its failures until then saying {@code failure} (none if null). */
    void closeAndCheck(final String failure) throws IOException, InterruptedException {
        final OutputStream in = process.getOutputStream();
        in.write("\n".getBytes(StandardCharsets.UTF_8));
        in.flush();
        final String failures = await("closed").get("failures");
        if (failure == null) {
            assertEquals("[]", failures, output());
        } else {
            assertTrue(failures.contains(failure), failures + "\n" + output());
        }
        assertNothingLeft();
        end();
    }

    /** Lets the launcher end, and asserts that it ended well. */
    private void end() throws IOException, InterruptedException {
        process.getOutputStream().close();
        assertTrue(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS), "the launcher did not end:\n" + output());
        assertEquals(0, process.exitValue(), output());
    }

    String output() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "(no output)";
    }

    private Map<String, String> facts() throws IOException {
        return Facts.of(output());
    }

    /**
     * After the deployment closed: no job left on any cluster, and no process in any namespace but the daemons and
     * the launcher, giving processes that are ending a bounded grace.
     */
    private void assertNothingLeft() throws IOException, InterruptedException {
        for (final NamespaceSlurm.Cluster cluster : slurm.clusters()) {
            awaitEmpty(cluster::jobs, "jobs left on cluster " + cluster.name());
            awaitEmpty(cluster::strays, "processes left in the namespaces of cluster " + cluster.name());
        }
        awaitEmpty(() -> slurm.straysBeside(process), "processes left beside the launcher");
    }

    private interface Listing {
        List<String> get() throws IOException;
    }

    private void awaitEmpty(final Listing listing, final String what) throws IOException, InterruptedException {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!listing.get().isEmpty() && System.nanoTime() < end) {
            Thread.sleep(100);
        }
        assertEquals(List.of(), listing.get(), what);
    }

    /**
     * The checks of every hops run, on its facts: node {@code i} is at an address of {@code addresses.get(i)} (all
     * different), each node answered from the runtime it announced, and each call reached the runtime it was meant
     * for at the address that runtime announced; nothing was announced as loopback or a wildcard.
     */
    static void assertHops(final Map<String, String> facts, final List<List<String>> addresses) {
        final int n = addresses.size();
        final String[][] nodes = new String[n][];
        for (int i = 0; i < n; i++) {
            nodes[i] = facts.get("node" + i).split(" ");
            final String host = nodes[i][0].substring(0, nodes[i][0].lastIndexOf(':'));
            assertTrue(
                    addresses.get(i).contains(host),
                    "node " + i + " announced " + nodes[i][0] + ", not an address" + " of " + addresses.get(i));
            for (int j = 0; j < i; j++) {
                assertFalse(nodes[j][0].startsWith(host + ":"), "nodes " + j + " and " + i + " on one host: " + facts);
            }
        }
        final String home = facts.get("home");
        for (int i = 0; i < n; i++) {
            assertEquals(nodes[i][1], facts.get("home->" + i), "node " + i + " answered from elsewhere");
            assertTrue(facts.get(i + "->home").endsWith(" " + home), facts.get(i + "->home"));
            for (int j = 0; j < n; j++) {
                if (i != j) {
                    assertReached(facts.get(i + "->" + j), nodes[j][0], nodes[j][1]);
                }
            }
        }
        assertReached(facts.get("0->1->0"), nodes[0][0], nodes[0][1]);
        for (final Map.Entry<String, String> fact : facts.entrySet()) {
            assertFalse(
                    fact.getValue().matches(".*(127\\.[0-9.]+|0\\.0\\.0\\.0|\\[::1?\\]):[0-9].*"),
                    "announced as loopback or wildcard: " + fact);
        }
    }

    /**
     * Asserts that the namespaces {@code namespaces} run a node JVM (one at least), and that none of their node JVMs
     * was given an address: no bind or advertise address in its command line or its environment.
     */
    static void assertNodeJvmsWithNoAddressSetting(final Netns net, final List<Integer> namespaces) throws IOException {
        int found = 0;
        for (final int ns : namespaces) {
            for (final ProcessHandle p : net.processes(ns)) {
                final String command = Netns.commandLine(p);
                if (command.contains("org.troupe.core.NodeMain")) {
                    found++;
                    final Path environ = Path.of("/proc", Long.toString(p.pid()), "environ");
                    final String environment =
                            Files.exists(environ) ? Files.readString(environ).replace('\0', ' ') : "";
                    assertFalse(
                            (command + environment).matches("(?is).*(bind|advertise)_?address.*"),
                            "a node JVM in " + net.name(ns) + " was given an address: " + command + " " + environment);
                }
            }
        }
        assertTrue(
                found > 0,
                "no node JVM in " + namespaces.stream().map(net::name).toList());
    }

    /** {@code fact} is {@code <how the caller named the callee> <the runtime that answered>}. */
    private static void assertReached(final String fact, final String address, final String runtimeId) {
        final Matcher m = NAMED_AT.matcher(fact);
        assertTrue(m.find(), fact);
        assertEquals(address, m.group(1), fact);
        assertTrue(fact.endsWith(" " + runtimeId), fact);
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
