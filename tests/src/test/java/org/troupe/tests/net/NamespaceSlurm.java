package org.troupe.tests.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.troupe.tests.NodeJvms;
import org.troupe.tests.deploy.SlurmCluster;
import org.troupe.tests.deploy.Sshd;

/**
 * Real multi-node Slurm clusters on this machine, spread over network namespaces as over hosts ({@link Netns}, all
 * on the tests' own subnet): namespace {@value #LAUNCHER} is where the launcher runs, and each cluster has three
 * more: its controller (slurmctld, and an SSH front-end when asked for) and two compute nodes, each a slurmd with
 * its own node name and the namespace's address.
 *
 * <pre>
 *   0: launcher   1: controller a (+ sshd)   2: node a1   3: node a2   4: controller b ...   5: node b1 ...
 * </pre>
 *
 * <p>A cluster's files (slurm.conf, state, spool directories, pid files and logs) are its own, in this fixture's
 * directory, and so is its munged, on a socket there that its namespaces share (a socket file is not bound to a
 * network stack). Nothing of the machine's Slurm is touched: every command reads its cluster's configuration from
 * {@code SLURM_CONF}, which sessions of the front-end's sshd get too. Slurm's ports are fixed, each namespace having
 * its ports to itself. {@link #close()} cancels every job, stops every daemon, removes the namespaces and deletes
 * the files, also after a failure (the namespaces' processes also from a shutdown hook, see {@link Netns}).
 */
final class NamespaceSlurm implements AutoCloseable {
    static final int LAUNCHER = 0;
    private static final String DIR_PREFIX = "troupe-slurmns-";
    private static final long START_SECONDS = 30;
    private static final long COMMAND_SECONDS = 30;
    private static final List<String> SLURM = List.of(
            "slurmctld", "slurmd", "munged", "sbatch", "srun", "squeue", "sinfo", "scancel", "qsub", "qstat", "qdel");

    private final Netns net;
    private final Path dir;
    private final List<Cluster> clusters = new ArrayList<>();

    /** A cluster: its namespaces, its configuration and its daemons. */
    final class Cluster {
        private final String name;
        private final int controller;
        private final Path conf;
        private final List<Process> daemons = new ArrayList<>();
        /** slurmctld: it runs slurmscriptd, whose processes are the daemon's own. */
        private Process slurmctld;

        private Process sshd;

        private Cluster(final String name, final int controller) {
            this.name = name;
            this.controller = controller;
            this.conf = dir.resolve(name).resolve("slurm.conf");
        }

        String name() {
            return name;
        }

        /** The address of the controller's namespace, where the front-end's sshd listens on port 22. */
        String frontEnd() {
            return net.address(controller);
        }

        /** Its namespaces: the controller's, then its nodes'. */
        List<Integer> namespaces() {
            return List.of(controller, controller + 1, controller + 2);
        }

        /** The namespaces of its two compute nodes. */
        List<Integer> nodes() {
            return List.of(controller + 1, controller + 2);
        }

        List<String> nodeAddresses() {
            return nodes().stream().map(net::address).toList();
        }

        /** Slurm's name of compute node {@code k} (0 or 1). */
        String nodeName(final int k) {
            return name + (k + 1);
        }

        /** What Slurm's commands need to reach this cluster. */
        Map<String, String> env() {
            return Map.of("SLURM_CONF", conf.toString());
        }

        /** Runs a Slurm command against this cluster from the launcher's namespace; returns its output. */
        String run(final String... command) throws IOException {
            return net.exec(LAUNCHER, env(), COMMAND_SECONDS, command);
        }

        /** The jobs the cluster has not finished, as {@code ID NAME STATE NODES NODELIST}. */
        List<String> jobs() throws IOException {
            return run("squeue", "-h", "-o", "%i %j %T %D %N").lines().toList();
        }

        /**
         * The processes in this cluster's namespaces besides its daemons: a job's, a JVM's, an SSH session's. None
         * once every job has ended and every session closed.
         */
        List<String> strays() throws IOException {
            final Set<Long> own = new HashSet<>();
            daemons.forEach(d -> own.add(d.pid()));
            slurmctld.descendants().forEach(p -> own.add(p.pid()));
            final List<String> strays = new ArrayList<>();
            for (final int i : namespaces()) {
                for (final ProcessHandle p : net.processes(i)) {
                    if (!own.contains(p.pid())) {
                        strays.add(net.name(i) + ": " + p.pid() + " " + shortly(Netns.commandLine(p)));
                    }
                }
            }
            return strays;
        }

        /** The last lines of the daemons' logs, for a failure's message. */
        String logs() {
            final StringBuilder b = new StringBuilder();
            try (Stream<Path> logs = Files.list(dir.resolve(name))) {
                for (final Path log :
                        logs.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
                    final List<String> lines = Files.readAllLines(log);
                    b.append("\n--- ")
                            .append(log)
                            .append(":\n")
                            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())));
                }
            } catch (IOException | UncheckedIOException e) {
                b.append("\n(logs unreadable: ").append(e.getMessage()).append(')');
            }
            return b.toString();
        }

        private void start(final boolean sshFrontEnd) throws IOException, InterruptedException {
            final Path home = Files.createDirectories(dir.resolve(name));
            final Path munge = Files.createDirectories(home.resolve("munge"));
            final byte[] key = new byte[1024];
            new SecureRandom().nextBytes(key);
            Files.write(munge.resolve("munge.key"), key);
            Files.setPosixFilePermissions(munge.resolve("munge.key"), PosixFilePermissions.fromString("r--------"));
            Files.createDirectories(home.resolve("state"));
            final List<String> nodeLines = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                Files.createDirectories(home.resolve("spool-" + nodeName(k)));
                nodeLines.add("NodeName=" + nodeName(k) + " NodeAddr="
                        + nodeAddresses().get(k) + " CPUs="
                        + Runtime.getRuntime().availableProcessors() + " State=UNKNOWN");
            }
            Files.writeString(
                    conf,
                    String.join(
                            "\n",
                            "# a test cluster of NamespaceSlurm, in network namespaces " + net.name(controller) + " to "
                                    + net.name(controller + 2),
                            "ClusterName=troupe-" + name,
                            // slurmctld runs only where its host name is the controller's; the address is the
                            // namespace's
                            "SlurmctldHost=" + hostName() + "(" + frontEnd() + ")",
                            "SlurmUser=root",
                            "SlurmctldPort=6817",
                            "SlurmdPort=6818",
                            "AuthType=auth/munge",
                            "AuthInfo=socket=" + munge.resolve("munge.socket"),
                            "CredType=cred/munge",
                            "StateSaveLocation=" + home.resolve("state"),
                            "SlurmdSpoolDir=" + home.resolve("spool-%n"),
                            "SlurmctldPidFile=" + home.resolve("slurmctld.pid"),
                            "SlurmdPidFile=" + home.resolve("slurmd-%n.pid"),
                            "SlurmctldLogFile=" + home.resolve("slurmctld.log"),
                            "SlurmdLogFile=" + home.resolve("slurmd-%n.log"),
                            String.join("\n", SlurmCluster.SETTINGS),
                            "KillWait=5", // a cancelled job's processes get SIGKILL 5 s after SIGTERM, not 30
                            String.join("\n", nodeLines),
                            "PartitionName=debug Nodes=" + nodeName(0) + "," + nodeName(1)
                                    + " Default=YES MaxTime=INFINITE State=UP",
                            ""));
            // munged runs as root (--force) on a socket of its own, beside any munged of the machine
            daemon(
                    controller,
                    "munged",
                    "munged",
                    "-F",
                    "--force",
                    "--socket=" + munge.resolve("munge.socket"),
                    "--key-file=" + munge.resolve("munge.key"),
                    "--pid-file=" + munge.resolve("munged.pid"),
                    "--seed-file=" + munge.resolve("munged.seed"));
            awaitFile(munge.resolve("munge.socket"), "munged");
            slurmctld = daemon(controller, "slurmctld-out", "slurmctld", "-D", "-i", "-f", conf.toString());
            for (int k = 0; k < 2; k++) {
                daemon(
                        controller + 1 + k,
                        "slurmd-" + nodeName(k) + "-out",
                        "slurmd",
                        "-D",
                        "-N",
                        nodeName(k),
                        "-f",
                        conf.toString());
            }
            if (sshFrontEnd) {
                startSshd(home.resolve("sshd"));
            }
        }

        /** Whether both nodes are idle (registered, ready for jobs). */
        private boolean idle() {
            try {
                return run("sinfo", "-h", "-N", "-o", "%N %t")
                                .lines()
                                .filter(l -> l.endsWith(" idle"))
                                .count()
                        == 2;
            } catch (IOException e) {
                return false; // slurmctld not up yet
            }
        }

        /** The front-end's sshd, listening on port 22 of the controller's namespace; its sessions get SLURM_CONF. */
        private void startSshd(final Path sshdDir) throws IOException, InterruptedException {
            Files.createDirectories(sshdDir);
            Files.createDirectories(Path.of("/run/sshd"));
            Sshd.keygen(sshdDir.resolve("host_key"));
            Files.copy(Path.of(userKey() + ".pub"), sshdDir.resolve("authorized_keys"));
            Sshd.writeConfig(sshdDir, frontEnd(), 22, "SetEnv SLURM_CONF=" + conf);
            sshd = daemon(
                    controller,
                    "sshd",
                    "/usr/sbin/sshd",
                    "-D",
                    "-e",
                    "-f",
                    sshdDir.resolve("sshd_config").toString());
        }

        private boolean sshdListens() throws IOException {
            return sshd == null
                    || Files.readString(dir.resolve(name).resolve("sshd.log")).contains("Server listening");
        }

        private Process daemon(final int ns, final String log, final String... command) throws IOException {
            // What unavailable() found, also where PATH lacks /usr/sbin (a plain user's PATH, as root)
            final List<String> line = new ArrayList<>(List.of(command));
            final Path found = Netns.which(command[0]);
            if (found != null) {
                line.set(0, found.toString());
            }
            final Process p = net.start(ns, env(), dir.resolve(name).resolve(log + ".log"), line);
            daemons.add(p);
            return p;
        }

        /** Cancels every job, waits (bounded) until none is left, then stops the daemons, newest first. */
        private void stop() {
            try {
                if (slurmctld != null && slurmctld.isAlive()) {
                    run("scancel", "--user=" + System.getProperty("user.name"));
                    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(COMMAND_SECONDS);
                    while (!jobs().isEmpty() && System.nanoTime() < deadline) {
                        Thread.sleep(200);
                    }
                }
            } catch (IOException e) {
                System.err.println("Cancelling the jobs of test cluster " + name + " failed: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                for (final Process d : daemons.reversed()) {
                    d.destroy();
                }
                for (final Process d : daemons.reversed()) {
                    try {
                        if (!d.waitFor(10, TimeUnit.SECONDS)) {
                            d.destroyForcibly();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        d.destroyForcibly();
                    }
                }
            }
        }
    }

    private NamespaceSlurm(final Netns net, final Path dir) {
        this.net = net;
        this.dir = dir;
    }

    /**
     * Why these clusters cannot run here, in one line (not root, no {@code ip netns}, no Slurm, munge or nsenter,
     * no sshd where front-ends are wanted); null if they can.
     */
    static String unavailable(final boolean sshFrontEnds) {
        final String netns = Netns.unavailable();
        if (netns != null) {
            return netns;
        }
        final List<String> missing = new ArrayList<>();
        for (final String command : SLURM) {
            if (Netns.which(command) == null) {
                missing.add(command);
            }
        }
        if (!missing.isEmpty()) {
            return "Slurm test clusters need " + String.join(", ", missing) + " (apt-get install slurm-wlm"
                    + " slurm-wlm-torque munge)";
        }
        if (Netns.which("nsenter") == null) {
            return "Slurm test clusters need nsenter (util-linux)";
        }
        if (sshFrontEnds && (!Files.isExecutable(Path.of("/usr/sbin/sshd")) || Netns.which("ssh-keygen") == null)) {
            return "SSH front-ends need /usr/sbin/sshd and ssh-keygen (apt-get install openssh-server)";
        }
        return null;
    }

    /**
     * Starts {@code names.size()} clusters on {@code subnet}.0/24 (three octets, as {@link Netns} takes them), named
     * as given (lower case: a Slurm cluster name), each with an SSH front-end if {@code sshFrontEnds}; returns once
     * every node is idle, within a bounded time.
     *
     * @throws IllegalStateException naming the daemon that did not come up, with its log
     */
    static NamespaceSlurm start(final String subnet, final List<String> names, final boolean sshFrontEnds)
            throws IOException, InterruptedException {
        return start(subnet, names, sshFrontEnds, null);
    }

    /**
     * As {@link #start(String, List, boolean)}, the launcher's namespace having first an interface on another
     * network, {@code campus} (see {@link Netns#Netns(String, int, String)}), if not null: a front-end with two.
     */
    static NamespaceSlurm start(
            final String subnet, final List<String> names, final boolean sshFrontEnds, final String campus)
            throws IOException, InterruptedException {
        removeStale();
        final Netns net = new Netns(subnet, 1 + 3 * names.size(), campus);
        final NamespaceSlurm s;
        try {
            s = new NamespaceSlurm(
                    net,
                    Files.createTempDirectory(
                            DIR_PREFIX + ProcessHandle.current().pid() + "-"));
        } catch (IOException | RuntimeException e) {
            net.close();
            throw e;
        }
        try {
            if (sshFrontEnds) {
                Sshd.keygen(s.userKey());
            }
            for (int c = 0; c < names.size(); c++) {
                final Cluster cluster = s.new Cluster(names.get(c), 1 + 3 * c);
                s.clusters.add(cluster);
                cluster.start(sshFrontEnds);
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
            for (final Cluster c : s.clusters) {
                while (!c.idle() || !c.sshdListens()) {
                    final boolean died = c.daemons.stream().anyMatch(d -> !d.isAlive());
                    if (died || System.nanoTime() > deadline) {
                        throw new IllegalStateException("test cluster " + c.name
                                + (died
                                        ? ": a daemon ended"
                                        : " did not come up within " + START_SECONDS + " s (both nodes idle"
                                                + (sshFrontEnds ? ", sshd listening" : "") + ")")
                                + c.logs());
                    }
                    Thread.sleep(100);
                }
            }
            return s;
        } catch (IOException | InterruptedException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    Netns net() {
        return net;
    }

    Cluster cluster(final int c) {
        return clusters.get(c);
    }

    List<Cluster> clusters() {
        return List.copyOf(clusters);
    }

    /** The private key the front-ends accept (root's: this user's). */
    Path userKey() {
        return dir.resolve("user").resolve("id_ed25519");
    }

    /** Where the launcher keeps known_hosts ({@code troupe.deploy.sshDir}): the fixture's, not the user's. */
    Path sshDir() {
        return dir.resolve("ssh");
    }

    /**
     * Starts {@code mainClass} as the launcher, in namespace {@value #LAUNCHER}: the deployment's secret, the
     * tests' classes allowed, quick heartbeats, this fixture's known_hosts, and the first cluster's Slurm commands;
     * no address setting (it picks the one that routes to the clusters); output to {@code log}. Its standard input is the test's: {@link ClusterLauncher} waits there between steps.
     */
    Process launcher(final Path log, final String mainClass, final String... args) throws IOException {
        final List<String> options = new ArrayList<>(List.of("-Dtroupe.deploy.sshDir=" + sshDir()));
        final Map<String, String> env = new HashMap<>(Map.of(
                "TROUPE_CORE_SECRET",
                NodeJvms.SECRET,
                "TROUPE_SERIALIZATION_ALLOWEDPACKAGES",
                "org.troupe.tests",
                "TROUPE_CORE_HEARTBEATMILLIS",
                "200",
                "TROUPE_CORE_PEERTIMEOUTMILLIS",
                "3000"));
        env.putAll(clusters.getFirst().env());
        return net.java(LAUNCHER, options, env, log, mainClass, args);
    }

    /** The processes in the launcher's namespace besides {@code launcher}. */
    List<String> straysBeside(final Process launcher) throws IOException {
        return net.processes(LAUNCHER).stream()
                .filter(p -> p.pid() != launcher.pid())
                .map(p -> net.name(LAUNCHER) + ": " + p.pid() + " " + shortly(Netns.commandLine(p)))
                .toList();
    }

    /** A command line for a message: a JVM's class path alone is thousands of characters. */
    private static String shortly(final String commandLine) {
        return commandLine.length() <= 300 ? commandLine : commandLine.substring(0, 300) + "...";
    }

    @Override
    public void close() {
        try {
            for (final Cluster c : clusters.reversed()) {
                c.stop();
            }
        } finally {
            net.close(); // and what is left in the namespaces with them
            delete(dir);
        }
    }

    private static String hostName() throws IOException {
        return new String(new ProcessBuilder("hostname", "-s")
                        .start()
                        .getInputStream()
                        .readAllBytes())
                .strip();
    }

    private static void awaitFile(final Path file, final String daemon) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(daemon + " did not make " + file + " within " + START_SECONDS + " s");
            }
            Thread.sleep(20);
        }
    }

    /** The directories of test JVMs that are gone (killed before they could delete them). */
    private static void removeStale() throws IOException {
        try (Stream<Path> tmp = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            for (final Path d : tmp.filter(f -> f.getFileName().toString().startsWith(DIR_PREFIX))
                    .toList()) {
                final String[] parts = d.getFileName()
                        .toString()
                        .substring(DIR_PREFIX.length())
                        .split("-");
                if (parts[0].matches("[0-9]{1,18}")
                        && ProcessHandle.of(Long.parseLong(parts[0])).isEmpty()) {
                    delete(d);
                }
            }
        }
    }

    private static void delete(final Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            System.err.println("Could not delete " + dir + ": " + e.getMessage());
        }
    }
}
