package org.troupe.tests.net;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Network namespaces of a test: separate network stacks on this machine, each with its own interfaces and
 * addresses, linked by the test's own veth pairs to a bridge in the first one, and JVMs started in them
 * ({@code ip netns exec}). Only addresses of the subnet given are used, and only inside the namespaces: the host's
 * own network is not touched. {@link #close()} kills every process started in them and deletes them, also after a
 * failure (and from a shutdown hook, should the test JVM be stopped first).
 *
 * <pre>
 *   namespace 0: br0 = PREFIX.1 --+-- veth -- namespace 1: PREFIX.2
 *                                 +-- veth -- namespace 2: PREFIX.3 ...
 * </pre>
 */
final class Netns implements AutoCloseable {
    /**
     * Namespaces of this JVM are named {@code troupe-test-<pid>-<n>-<i>} (the n-th Netns of this JVM): a run killed
     * too early is cleaned up later, and two fixtures of one JVM never share a name.
     */
    private static final String NAME_PREFIX = "troupe-test-";

    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private static final long COMMAND_SECONDS = 20;

    private final String subnet;
    private final List<String> namespaces = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final Thread cleanUp = new Thread(this::removeAll, "netns-clean-up");

    /**
     * Why these tests cannot run here (not root, no {@code ip netns}), in one line; null if they can.
     */
    static String unavailable() {
        try {
            if (!Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"))) {
                return "network namespace tests need root (to create namespaces and veth pairs)";
            }
        } catch (IOException | UnsupportedOperationException e) {
            return "network namespace tests need Linux and root: " + e;
        }
        try {
            final Process p = new ProcessBuilder("ip", "netns", "list")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            return p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS) && p.exitValue() == 0
                    ? null
                    : "network namespace tests need 'ip netns' (iproute2), which failed here";
        } catch (IOException e) {
            return "network namespace tests need 'ip netns' (iproute2): " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /**
     * {@code count} namespaces on {@code subnet}.0/24 ({@code subnet} is three octets, such as {@code 10.213.18}):
     * namespace i has {@code subnet.(i+1)}; the first holds the bridge the others are linked to.
     */
    Netns(final String subnet, final int count) throws IOException {
        this(subnet, count, null);
    }

    /**
     * As {@link #Netns(String, int)}, the first namespace having, if {@code campus} is not null, another interface
     * before the bridge (its first: what it announces where no connection tells), with address {@code campus}/24 on
     * a network none of the others reach: a front-end's campus network.
     */
    Netns(final String subnet, final int count, final String campus) throws IOException {
        this.subnet = subnet;
        removeStale();
        Runtime.getRuntime().addShutdownHook(cleanUp);
        final int instance = INSTANCES.incrementAndGet();
        try {
            for (int i = 0; i < count; i++) {
                final String ns = NAME_PREFIX + ProcessHandle.current().pid() + "-" + instance + "-" + i;
                run("ip", "netns", "add", ns);
                namespaces.add(ns);
                run("ip", "-n", ns, "link", "set", "lo", "up");
            }
            final String hub = namespaces.get(0);
            if (campus != null) {
                // a veth pair with its other end left alone there (no dummy module everywhere): up, going nowhere
                run("ip", "-n", hub, "link", "add", "campus0", "type", "veth", "peer", "name", "campus1");
                run("ip", "-n", hub, "addr", "add", campus + "/24", "dev", "campus0");
                run("ip", "-n", hub, "link", "set", "campus1", "up");
                run("ip", "-n", hub, "link", "set", "campus0", "up");
            }
            run("ip", "-n", hub, "link", "add", "br0", "type", "bridge");
            run("ip", "-n", hub, "addr", "add", address(0) + "/24", "dev", "br0");
            run("ip", "-n", hub, "link", "set", "br0", "up");
            for (int i = 1; i < count; i++) {
                // Each end is made in its own namespace: no interface of the host is created or named.
                run(
                        "ip",
                        "-n",
                        hub,
                        "link",
                        "add",
                        "to" + i,
                        "type",
                        "veth",
                        "peer",
                        "name",
                        "eth0",
                        "netns",
                        namespaces.get(i));
                run("ip", "-n", hub, "link", "set", "to" + i, "master", "br0", "up");
                run("ip", "-n", namespaces.get(i), "addr", "add", address(i) + "/24", "dev", "eth0");
                run("ip", "-n", namespaces.get(i), "link", "set", "eth0", "up");
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The address of namespace {@code i}. */
    String address(final int i) {
        return subnet + "." + (i + 1);
    }

    /**
     * Starts {@code java ... mainClass args} in namespace {@code i}, with this test's class path, the JVM options
     * {@code options} and an environment of this JVM's without any Troupe setting, plus {@code env}; its output
     * and errors go to {@code log}.
     */
    Process java(
            final int i,
            final List<String> options,
            final Map<String, String> env,
            final Path log,
            final String mainClass,
            final String... args)
            throws IOException {
        final List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m"));
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        return start(i, env, log, command);
    }

    /** The name of namespace {@code i}, for {@code ip netns exec} or {@code nsenter --net=/run/netns/NAME}. */
    String name(final int i) {
        return namespaces.get(i);
    }

    /**
     * Starts {@code command} in namespace {@code i} and keeps it until {@link #close()}: in that network stack only,
     * with the environment of this JVM without any Troupe setting, plus {@code env}; output and errors to
     * {@code log}. Unlike {@code ip netns exec}, which mounts a /sys of the namespace's own, {@code nsenter} leaves the
     * file systems as they are: a daemon that needs the control groups under /sys/fs/cgroup (slurmd) finds them.
     */
    Process start(final int i, final Map<String, String> env, final Path log, final List<String> command)
            throws IOException {
        final ProcessBuilder pb = inNamespace(i, env, command);
        Files.createDirectories(log.getParent());
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        final Process p = pb.start();
        synchronized (processes) {
            processes.add(p);
        }
        return p;
    }

    /**
     * Runs {@code command} in namespace {@code i} (as {@link #start} does, with {@code env}) to its end, within
     * {@code seconds}; returns its output.
     *
     * @throws IOException when it fails or does not end in time, with its output
     */
    String exec(final int i, final Map<String, String> env, final long seconds, final String... command)
            throws IOException {
        return output(
                inNamespace(i, env, List.of(command)).redirectErrorStream(true).start(),
                seconds,
                String.join(" ", command));
    }

    /** The processes of namespace {@code i}, whoever started them. */
    List<ProcessHandle> processes(final int i) throws IOException {
        final String pids = output(
                new ProcessBuilder("ip", "netns", "pids", namespaces.get(i))
                        .redirectErrorStream(true)
                        .start(),
                COMMAND_SECONDS,
                "ip netns pids");
        return pids.lines()
                .map(String::strip)
                .filter(s -> s.matches("[0-9]+"))
                .flatMap(pid -> ProcessHandle.of(Long.parseLong(pid)).stream())
                .toList();
    }

    /** tc, found also where PATH lacks /usr/sbin (a plain user's PATH, as root), or its bare name. */
    private static String tc() {
        final Path found = which("tc");
        return found == null ? "tc" : found.toString();
    }

    /** Where {@code command} is, in PATH or /usr/sbin and /sbin; null if nowhere. */
    static Path which(final String command) {
        final String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/sbin:/sbin";
        for (final String d : path.split(File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, command))) {
                return Path.of(d, command);
            }
        }
        return null;
    }

    /**
     * Why {@link #delay} cannot work here (this kernel has no netem queueing discipline), in one line; null if it
     * can.
     */
    String delayUnavailable() {
        try {
            exec(0, Map.of(), COMMAND_SECONDS, tc(), "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms");
            exec(0, Map.of(), COMMAND_SECONDS, tc(), "qdisc", "del", "dev", "lo", "root");
            return null;
        } catch (IOException e) {
            return "tc netem is not available here (the kernel's sch_netem): "
                    + e.getMessage().lines().findFirst().orElse("");
        }
    }

    /**
     * Delays by {@code millis} every packet between namespace {@code i} (not the first) and the others, each way,
     * with {@code tc netem} on both ends of its veth pair: a slow link to that host. {@code millis} 0 takes the delay
     * away.
     */
    void delay(final int i, final int millis) throws IOException {
        for (final int end : List.of(i, 0)) {
            final List<String> tc = new ArrayList<>(List.of(
                    tc(), "qdisc", millis > 0 ? "replace" : "del", "dev", end == 0 ? "to" + i : "eth0", "root"));
            if (millis > 0) {
                tc.addAll(List.of("netem", "delay", millis + "ms"));
            }
            exec(end, Map.of(), COMMAND_SECONDS, tc.toArray(String[]::new));
        }
    }

    /** The command line of {@code p}, whole (ProcessHandle.Info cuts it at 4 KiB, shorter than a class path). */
    static String commandLine(final ProcessHandle p) {
        try {
            return new String(
                            Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline")),
                            StandardCharsets.UTF_8)
                    .replace('\0', ' ')
                    .strip();
        } catch (IOException e) {
            return "(ended)";
        }
    }

    private ProcessBuilder inNamespace(final int i, final Map<String, String> env, final List<String> command) {
        final List<String> all = new ArrayList<>(List.of("nsenter", "--net=/run/netns/" + namespaces.get(i), "--"));
        all.addAll(command);
        final ProcessBuilder pb = new ProcessBuilder(all);
        pb.environment().keySet().removeIf(k -> k.startsWith("TROUPE_"));
        pb.environment().putAll(env);
        return pb;
    }

    /** What {@code p} prints until it ends, within {@code seconds} (it is killed then; its output read apart). */
    private static String output(final Process p, final long seconds, final String what) throws IOException {
        final CompletableFuture<String> read = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                read.complete(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                read.complete("(output unreadable: " + e.getMessage() + ")");
            }
        });
        final String output;
        try {
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IOException(what + " did not end within " + seconds + " s: "
                        + read.completeOnTimeout("", 1, TimeUnit.SECONDS).join());
            }
            output = read.get(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted: " + what, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException(what + ": its output did not end with it (a process it started keeps it open)", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(what + " failed (" + p.exitValue() + "): " + output.strip());
        }
        return output;
    }

    /**
     * Cuts namespace {@code i} (from 1) off the bridge ({@code up} false), as a network cut: its interface and
     * address stay, its connections stall; or links it again. The namespace's own end is left alone, so that
     * nothing in it notices but silence.
     */
    void link(final int i, final boolean up) throws IOException {
        if (i < 1 || i >= namespaces.size()) {
            throw new IllegalArgumentException(
                    "namespace " + i + " has no link to cut (1 to " + (namespaces.size() - 1) + ")");
        }
        run("ip", "-n", namespaces.get(0), "link", "set", "to" + i, up ? "up" : "down");
    }

    /** The pids of the processes running in namespace {@code i} now, whoever started them. */
    List<Long> pids(final int i) throws IOException {
        return pidsIn(namespaces.get(i));
    }

    private static void run(final String... command) throws IOException {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        try {
            if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not end within " + COMMAND_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (" + p.exitValue() + "): " + output);
        }
    }

    /** Namespaces left by a test JVM that is gone (killed before it could remove them). */
    private static void removeStale() throws IOException {
        final Process p = new ProcessBuilder("ip", "netns", "list")
                .redirectErrorStream(true)
                .start();
        final String list = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        for (final String line : list.lines().toList()) {
            final String name = line.split(" ", 2)[0];
            final String[] parts = name.startsWith(NAME_PREFIX)
                    ? name.substring(NAME_PREFIX.length()).split("-")
                    : new String[0];
            if (parts.length >= 2
                    && parts[0].matches("[0-9]+")
                    && ProcessHandle.of(Long.parseLong(parts[0])).isEmpty()) {
                killAllIn(name);
                run("ip", "netns", "del", name);
            }
        }
    }

    private static List<Long> pidsIn(final String ns) throws IOException {
        final Process p = new ProcessBuilder("ip", "netns", "pids", ns)
                .redirectErrorStream(true)
                .start();
        final String pids = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return pids.lines()
                .map(String::strip)
                .filter(s -> s.matches("[0-9]+"))
                .map(Long::parseLong)
                .toList();
    }

    /** Kills every process still running in namespace {@code ns}, whoever started it. */
    private static void killAllIn(final String ns) {
        try {
            pidsIn(ns).forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        } catch (IOException e) {
            // nothing to kill can be found: deleting the namespace is still tried
        }
    }

    private synchronized void removeAll() {
        final List<Process> started;
        synchronized (processes) {
            started = List.copyOf(processes);
        }
        for (final Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (final Process p : started) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (final String ns : namespaces) {
            killAllIn(ns);
            try {
                run("ip", "netns", "del", ns); // its interfaces go with it, and the veth ends in the others
            } catch (IOException e) {
                System.err.println("Could not delete network namespace " + ns + ": " + e.getMessage());
            }
        }
        namespaces.clear();
    }

    @Override
    public void close() {
        removeAll();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanUp);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs, or has run, anyway
        }
    }
}
