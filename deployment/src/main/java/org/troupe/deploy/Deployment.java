package org.troupe.deploy;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.config.TroupeSettings;
import org.troupe.core.CoreConfig;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.spi.HostAddresses;
import org.troupe.deploy.descriptor.Descriptor;
import org.troupe.deploy.descriptor.DescriptorLoader;
import org.troupe.deploy.descriptor.ProcessSpec;
import org.troupe.deploy.descriptor.VirtualNodeSpec;
import org.troupe.deploy.launch.Launch;
import org.troupe.monitor.Entity;
import org.troupe.monitor.Monitor;
import org.troupe.serialization.SerializationConfig;

/**
 * A descriptor being deployed: {@link #start()} launches every process chain of its mapping (each on its own
 * thread) and returns at once; node JVMs call home to this JVM's runtime and attach to their
 * {@linkplain #virtualNode virtual node}. {@link #close()} stops everything it started (JVMs, SSH sessions, batch
 * jobs); a shutdown hook does the same if the application ends without closing it, and node JVMs exit by themselves
 * when this JVM is killed.
 *
 * <pre>{@code
 * try (Deployment d = Deployment.load(Path.of("descriptors/local.xml")).start()) {
 *     List<Node> nodes = d.virtualNode("jem3d").waitForNodes(4, Duration.ofMinutes(1));
 *     ...
 * }
 * }</pre>
 */
public final class Deployment implements AutoCloseable {
    /** Where SSH keys and known_hosts are looked for, unless a descriptor names a key. */
    public static final String SSH_DIR_PROP_NAME = "troupe.deploy.sshDir";
    /**
     * Whether the lines node JVMs print reach this JVM's standard output and error, each prefixed with its JVM's
     * name ({@code [workers-2] }); off by default (they go to the logs only), on for {@code bin/deploy --run}.
     */
    public static final String RELAY_OUTPUT_PROP_NAME = "troupe.deploy.relayOutput";
    /** slf4j-simple's level for Troupe's loggers: bin/deploy sets it (warn) for itself and its relayed node JVMs. */
    static final String TROUPE_LOG_LEVEL_PROP_NAME = "org.slf4j.simpleLogger.log.org.troupe";
    /**
     * The flags of this JVM that node JVMs get too: access to JDK internals and native code, preview features. A
     * node JVM gets the two Troupe needs (Netty's memory access, without the JDK's warnings) even if this has none.
     */
    private static final List<String> INHERITED_FLAGS = List.of(
            "--add-opens",
            "--add-exports",
            "--add-reads",
            "--enable-native-access",
            "--sun-misc-unsafe-memory-access",
            "--enable-preview");
    /**
     * What every node JVM gets; its port among them: each listens on a port of its own, whatever a troupe.properties
     * of its working directory or JDK_JAVA_OPTIONS says (a {@code <jvmOption>} still may).
     */
    private static final List<String> NODE_FLAGS = Stream.concat(
                    CoreConfig.JVM_FLAGS.stream(), Stream.of("-D" + CoreConfig.PORT_PROP_NAME + "=0"))
            .toList();

    private static final Logger LOG = LoggerFactory.getLogger(Deployment.class);
    private static volatile Deployment current;

    private enum State {
        NEW,
        STARTED,
        CLOSED
    }

    private final Descriptor descriptor;
    private final String id;
    private final Map<String, VirtualNode> virtualNodes = new LinkedHashMap<>();
    /** Each launch, and the virtual node its nodes attach to. */
    private final Map<Launch, VirtualNode> launches = new ConcurrentHashMap<>();
    /** The node JVMs that called home, and the launch that started each. */
    private final Map<String, Launch> nodeRuntimes = new ConcurrentHashMap<>();

    private final List<Runnable> unsubscribe = new ArrayList<>();
    /** Class path entries the node JVMs get besides this JVM's own (see {@link #addClassPath}). */
    private final List<String> addedClassPath = new ArrayList<>();

    private State state = State.NEW;
    /** Whether close() keeps the logs though nothing failed here: the application asked (see keepLogs()). */
    private volatile boolean keepLogs;

    private TroupeRuntime runtime;
    private Thread shutdownHook;
    /** See {@link #addressNote()}. */
    private volatile String homeNote;

    public Deployment(final Descriptor descriptor) {
        this.descriptor = descriptor;
        this.id = "d" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        for (final VirtualNodeSpec vn : descriptor.virtualNodes()) {
            final VirtualNode node = new VirtualNode(vn);
            node.requester(this::requestNodes);
            virtualNodes.put(vn.name(), node);
        }
    }

    /** Loads and checks a descriptor ({@link DescriptorLoader#load}); nothing starts yet. */
    public static Deployment load(final Path descriptor) {
        return new Deployment(DescriptorLoader.load(descriptor));
    }

    /** Loads a descriptor with {@code variables} winning over every other source of {@code ${name}} values. */
    public static Deployment load(final Path descriptor, final Map<String, String> variables) {
        return new Deployment(DescriptorLoader.load(descriptor, variables));
    }

    /**
     * The deployment {@code bin/deploy FILE --run MAIN} started for the application it runs.
     *
     * @throws IllegalStateException when the application was not started that way
     */
    public static Deployment current() {
        final Deployment d = current;
        if (d == null) {
            throw new IllegalStateException("No deployment was started for this application: run it with"
                    + " bin/deploy DESCRIPTOR --run MAIN_CLASS, or load one with Deployment.load(path).start()");
        }
        return d;
    }

    /**
     * The deployment {@code bin/deploy FILE --run MAIN} started for the application it runs, or empty when it was
     * started otherwise (with plain {@code java}, say): for a program that runs either way.
     */
    public static Optional<Deployment> currentIfAny() {
        return Optional.ofNullable(current);
    }

    /** Makes this the deployment {@link #current()} returns (what {@code bin/deploy --run} does). */
    void makeCurrent() {
        current = this;
    }

    /** This deployment's id: the names of its nodes start with it. */
    public String id() {
        return id;
    }

    public Descriptor descriptor() {
        return descriptor;
    }

    /**
     * Starts every launch of the mapping, each on its own thread, and returns; nodes attach as their JVMs call
     * home to this JVM's runtime (which starts listening: where the hosts the descriptor reaches reach it, when
     * {@code troupe.core.bindAddress} is not set, said in one INFO line). Failures of launches are recorded, not
     * thrown: see {@link #failures()}.
     *
     * @throws TroupeException at once, with nothing started, when the descriptor reaches other hosts and no address
     *     of this JVM can work for them (a bind address set to loopback, no route): it names the setting and the
     *     value to try, as {@link #plan()} does
     */
    public synchronized Deployment start() {
        if (state != State.NEW) {
            throw new IllegalStateException(
                    "Deployment " + id + " is " + state.name().toLowerCase() + "; a deployment"
                            + " starts once: load the descriptor again for another one");
        }
        runtime = TroupeRuntime.get();
        final HomeAddresses.Choice home = HomeAddresses.choose(
                descriptor, runtime.config(), runtime.bindAddress(), runtime.address(), HomeAddresses.Network.SYSTEM);
        final String announced = home.listenOn() == null ? runtime.listen() : runtime.listen(home.listenOn());
        final int port = HostAddresses.port(announced);
        if (home.note() != null) {
            homeNote = home.note() + " (port " + port + ")";
            LOG.info("Deployment {}: {}", id, homeNote);
        }
        final boolean relay = TroupeSettings.load().getBoolean(RELAY_OUTPUT_PROP_NAME, false);
        final List<String> flags =
                nodeJvmFlags(ManagementFactory.getRuntimeMXBean().getInputArguments());
        final String troupeLogLevel = System.getProperty(TROUPE_LOG_LEVEL_PROP_NAME);
        if (relay && troupeLogLevel != null) {
            // what the launcher prints of Troupe's own logging, the relayed node JVMs print too
            flags.add("-D" + TROUPE_LOG_LEVEL_PROP_NAME + "=" + troupeLogLevel);
        }
        final Launch.Context context = new Launch.Context(
                id,
                announced,
                runtime.config().secret(),
                inheritedEnv(runtime.config()),
                sshDir(),
                System.getProperty("java.home"),
                String.join(File.pathSeparator, classPath()),
                flags,
                localSettings(System.getProperties()),
                relay);
        state = State.STARTED;
        unsubscribe.add(runtime.onNodeRegistered(this::registered));
        unsubscribe.add(runtime.onRuntimeLost(this::lost));
        int v = 0;
        for (final VirtualNodeSpec spec : descriptor.virtualNodes()) {
            final VirtualNode vn = virtualNodes.get(spec.name());
            for (final ProcessSpec chain : descriptor.mapping().get(spec.name())) {
                final List<InetAddress> dial = home.dial().get(chain);
                Launch.Context c = dial == null
                        ? context
                        : context.withParentAddress(String.join(
                                ",",
                                dial.stream()
                                        .map(a -> HostAddresses.hostPort(a, port))
                                        .toList()));
                final String everywhere = home.listenEverywhere().get(chain);
                if (everywhere != null) {
                    c = c.withLocalSetting("-D" + CoreConfig.BIND_ADDRESS_PROP_NAME + "=" + everywhere);
                }
                final int[] next = vn.nextLaunch();
                final Launch l = new Launch(
                        c, chain, spec.name() + "-" + next[0], namePrefix(v, next[0]), events, spec.name(), next[1]);
                launches.put(l, vn);
                vn.add(l);
            }
            v++;
        }
        shutdownHook = new Thread(this::close, "troupe-deployment-" + id + "-hook");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        LOG.info("Deployment {} of {}: starting {} launches", id, descriptor.source(), launches.size());
        launches.keySet().forEach(this::startLaunch);
        return this;
    }

    /** What the names of the nodes of virtual node number {@code v}'s {@code i}th launch start with. */
    private String namePrefix(final int v, final int i) {
        return id + "." + v + "." + i + ".";
    }

    private void startLaunch(final Launch l) {
        Thread.ofVirtual().name("troupe-launch-" + l.label()).start(() -> {
            try {
                l.start();
            } catch (RuntimeException e) {
                events.ended(l, e.getMessage());
            }
        });
    }

    /**
     * Starts a launch of {@code n} more nodes for {@code vn} ({@link VirtualNode#request}): its busiest chain,
     * changed to offer them, reached as its first launch was.
     */
    private Launch requestNodes(final VirtualNode vn, final int n) {
        final Launch launch;
        synchronized (this) {
            if (state != State.STARTED) {
                throw new IllegalStateException(
                        "Deployment " + id + " is " + state.name().toLowerCase(Locale.ROOT) + ": ask virtual node "
                                + vn.name() + " for more nodes after start() and before close()");
            }
            final Launch model = vn.busiestLaunch();
            final int[] next = vn.nextLaunch();
            final int v = List.copyOf(virtualNodes.values()).indexOf(vn);
            launch = model.another(
                    model.chain().withNodes(n), vn.name() + "-" + next[0], namePrefix(v, next[0]), next[1]);
            launches.put(launch, vn);
            vn.addRequested(launch);
        }
        LOG.info(
                "Deployment {}: {} more node(s) asked of virtual node {}: launch {} ({})",
                id,
                n,
                vn.name(),
                launch.label(),
                launch.describeChain());
        startLaunch(launch);
        return launch;
    }

    /**
     * What {@link #start()} would do in a JVM whose runtime does not listen yet, from this JVM's settings (what
     * {@code bin/deploy --check} prints): the descriptor's plan, with the address each launch's node JVMs will dial
     * and, when the descriptor reaches other hosts, why. Starts nothing.
     *
     * @throws TroupeException as {@link #start()} does when no address works, saying what to set
     */
    public String plan() {
        final HomeAddresses.Choice home =
                HomeAddresses.choose(descriptor, CoreConfig.fromSettings(), "", "", HomeAddresses.Network.SYSTEM);
        return descriptor.plan(chain -> "its node JVMs dial " + home.hostFor(chain))
                + (home.note() == null ? "" : "address: " + home.note() + "\n");
    }

    /**
     * What {@link #start()} chose for the address node JVMs dial and why, in one line, or null if it chose nothing
     * (the descriptor stays on this host). A launcher prints it: it says where other hosts reach this JVM.
     */
    public String addressNote() {
        return homeNote;
    }

    /**
     * Adds {@code entries} to the class path the node JVMs get (staged where it is staged), after this JVM's own:
     * classes of an application that this JVM loads apart, say. Before {@link #start()}.
     */
    public synchronized Deployment addClassPath(final List<Path> entries) {
        if (state != State.NEW) {
            throw new IllegalStateException("Deployment " + id + " has started: add to the class path before start()");
        }
        entries.forEach(e -> addedClassPath.add(e.toAbsolutePath().toString()));
        return this;
    }

    /**
     * The flags node JVMs get before their descriptor's options: those of {@link #INHERITED_FLAGS} that this JVM was
     * started with ({@code launcher}: its input arguments), and {@link #NODE_FLAGS} unless it has its own of them.
     */
    static List<String> nodeJvmFlags(final List<String> launcher) {
        final List<String> flags = new ArrayList<>();
        for (int i = 0; i < launcher.size(); i++) {
            final String arg = launcher.get(i);
            final String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (INHERITED_FLAGS.contains(name)) {
                flags.add(arg);
                if (name.equals(arg) && !name.equals("--enable-preview") && i + 1 < launcher.size()) {
                    flags.add(launcher.get(++i)); // the two-word form: --add-opens java.base/java.lang=ALL-UNNAMED
                }
            }
        }
        for (final String f : NODE_FLAGS) {
            final String name = f.substring(0, f.indexOf('='));
            // A module export adds to the launcher's own; any other flag of the launcher's wins over Troupe's.
            final boolean given = name.equals("--add-exports")
                    ? flags.contains(f) || flags.contains(f.substring(name.length() + 1))
                    : flags.stream().anyMatch(g -> g.startsWith(name));
            if (!given) {
                flags.add(f);
            }
        }
        return flags;
    }

    private List<String> classPath() {
        final List<String> all = new ArrayList<>(List.of(System.getProperty("java.class.path")));
        all.addAll(addedClassPath);
        return all;
    }

    /**
     * This JVM's {@code troupe.core.*} and {@code troupe.serialization.*} system properties, as options for the node
     * JVMs started from this host, which inherit its environment too: a setting reaches them whichever way it was
     * given. Not the secret (they read the deployment's from a file; a command line is visible to all), nor where
     * this JVM listens ({@link Launch.Context#HOST_SETTINGS}): each node JVM chooses its own. With
     * {@link TroupeSettings#CHECKED_PROP_NAME}: this JVM warned of their unknown keys already.
     */
    static List<String> localSettings(final Properties properties) {
        final List<String> options = new ArrayList<>();
        for (final String key : new TreeSet<>(properties.stringPropertyNames())) {
            if ((key.startsWith("troupe.core.") || key.startsWith("troupe.serialization."))
                    && !key.equals(CoreConfig.SECRET_PROP_NAME)
                    && !key.equals(CoreConfig.SECRET_FILE_PROP_NAME)
                    && !Launch.Context.HOST_SETTINGS.contains(key)) {
                options.add("-D" + key + "=" + properties.getProperty(key));
            }
        }
        // Their settings are this JVM's, which warned of unknown keys (if it read them): once per deployment.
        options.add("-D" + TroupeSettings.CHECKED_PROP_NAME + "=true");
        return options;
    }

    /** What the node JVMs get from this JVM's settings, so that they accept the same classes, timings and frames. */
    private static Map<String, String> inheritedEnv(final CoreConfig config) {
        final Map<String, String> env = new LinkedHashMap<>();
        if (!config.serialization().allowedPackages().isEmpty()) {
            env.put(
                    TroupeSettings.environmentVariable(SerializationConfig.ALLOWED_PACKAGES_PROP_NAME),
                    String.join(",", config.serialization().allowedPackages()));
        }
        if (!config.serialization().allowedClassNames().isEmpty()) {
            env.put(
                    TroupeSettings.environmentVariable(SerializationConfig.ALLOWED_CLASSES_PROP_NAME),
                    String.join(",", config.serialization().allowedClassNames()));
        }
        env.put(
                TroupeSettings.environmentVariable(CoreConfig.HEARTBEAT_PROP_NAME),
                String.valueOf(config.heartbeat().toMillis()));
        env.put(
                TroupeSettings.environmentVariable(CoreConfig.PEER_TIMEOUT_PROP_NAME),
                String.valueOf(config.peerTimeout().toMillis()));
        env.put(
                TroupeSettings.environmentVariable(CoreConfig.AUTHENTICATE_FRAMES_PROP_NAME),
                String.valueOf(config.authenticateFrames())); // both ends of a link must agree, or it is refused
        env.put(TroupeSettings.environmentVariable(CoreConfig.METRICS_PROP_NAME), String.valueOf(config.metrics()));
        env.put(
                TroupeSettings.environmentVariable(CoreConfig.METRICS_REPORT_PROP_NAME),
                String.valueOf(config.metricsReport().toMillis()));
        return env;
    }

    private static Path sshDir() {
        final String dir = TroupeSettings.load().getString(SSH_DIR_PROP_NAME, null);
        return dir != null ? Path.of(dir) : Path.of(System.getProperty("user.home"), ".ssh");
    }

    /**
     * The virtual node {@code name}.
     *
     * @throws IllegalArgumentException naming the virtual nodes the descriptor has
     */
    public VirtualNode virtualNode(final String name) {
        final VirtualNode vn = virtualNodes.get(name);
        if (vn == null) {
            throw new IllegalArgumentException("Descriptor " + descriptor.source() + " has no virtual node '" + name
                    + "'; it has " + virtualNodes.keySet());
        }
        return vn;
    }

    /**
     * Shows this deployment in {@code monitor}'s console: its descriptor, virtual nodes, launches, JVMs and nodes,
     * each with its state (a lost JVM with the reason); with {@code troupe.monitor.control}, a button kills a JVM.
     */
    public void showIn(final Monitor monitor) {
        monitor.title("deployment " + id + " of " + descriptor.source());
        monitor.tree(this::tree);
        // the node JVM ends once its link to this runtime is closed; the deployment hears of it as of any loss
        monitor.jvmControl("kill", jvm -> {
            if (nodeRuntimes.containsKey(jvm)) { // one of this deployment's, and no other runtime
                runtime.release(jvm, "killed from the console");
            }
        });
    }

    /** The deployment as the console's tree: the descriptor, its virtual nodes, their launches, JVMs and nodes. */
    List<Entity> tree() {
        final State s;
        synchronized (this) {
            s = state;
        }
        return List.of(new Entity(
                "descriptor",
                String.valueOf(descriptor.source()),
                s.name().toLowerCase(Locale.ROOT),
                "deployment " + id,
                "",
                virtualNodes.values().stream().map(VirtualNode::entity).toList()));
    }

    public List<VirtualNode> virtualNodes() {
        return List.copyOf(virtualNodes.values());
    }

    /** Every failure so far, of every virtual node. */
    public List<DeploymentFailure> failures() {
        return virtualNodes.values().stream()
                .flatMap(vn -> vn.failures().stream())
                .toList();
    }

    /** One progress line for all virtual nodes: wanted / attached / failed. */
    public String progress() {
        return String.join(
                " | ", virtualNodes.values().stream().map(VirtualNode::progress).toList());
    }

    private void registered(final Node node) {
        // a launch's JVMs name their nodes with its prefix, which ends with a dot: no prefix starts another
        final Launch launch = launches.keySet().stream()
                .filter(l -> node.name().startsWith(l.namePrefix()))
                .findFirst()
                .orElse(null);
        if (launch == null) {
            return; // another deployment's, or a node started by hand
        }
        if (!isStarted()) { // a JVM that called home after close(): it is let go like the others
            Thread.ofVirtual().start(() -> runtime.release(node.runtimeId(), "deployment " + id + " closed"));
            return;
        }
        nodeRuntimes.put(node.runtimeId(), launch);
        final VirtualNode vn = launches.get(launch);
        if (!vn.attach(node, launch) && !vn.holdsNodeOf(node.runtimeId())) {
            LOG.info(
                    "Deployment {}: virtual node {} has its {} nodes; JVM {} is not needed and is let go",
                    id,
                    vn.name(),
                    vn.wanted(),
                    node.runtimeId());
            // not on this thread: it reads the very link being closed
            Thread.ofVirtual()
                    .start(() -> runtime.release(node.runtimeId(), "not needed by virtual node " + vn.name()));
        }
    }

    private void lost(final String runtimeId, final String reason) {
        final Launch launch = nodeRuntimes.get(runtimeId);
        if (launch != null && isStarted()) {
            launches.get(launch).lost(runtimeId, launch, reason);
        }
    }

    /** What the launches report: a launch that ended is stopped at once (its logs kept if nodes are missing). */
    private final Launch.Events events = new Launch.Events() {
        @Override
        public void ended(final Launch launch, final String why) {
            if (isStarted()) {
                final boolean keep = launches.get(launch).failed(launch, why) || keepLogs;
                Thread.ofVirtual().start(() -> launch.stop(keep));
            }
        }

        @Override
        public void output(final Launch launch, final String jvm, final boolean stderr, final String text) {
            (stderr ? System.err : System.out).println("[" + jvm + "] " + text); // one call: lines do not mix
        }

        @Override
        public void jvmFailed(final Launch launch, final long pid, final int nodes, final String why) {
            // a JVM that had called home is reported by its link's end instead
            final boolean calledHome = nodeRuntimes.entrySet().stream()
                    .anyMatch(e -> e.getValue() == launch && TroupeRuntime.pidOf(e.getKey()) == pid);
            if (isStarted() && !calledHome) {
                launches.get(launch).missing(launch, nodes, why);
            }
        }
    };

    private synchronized boolean isStarted() {
        return state == State.STARTED;
    }

    /**
     * Keeps the hosts' logs at {@link #close()}, as when a launch failed: for an application that failed, whose
     * node JVMs' logs may say why. {@code close()} says where they are.
     */
    public Deployment keepLogs() {
        keepLogs = true;
        return this;
    }

    /**
     * Stops everything this deployment started: releases its node JVMs (they exit), stops the processes and
     * SSH sessions, cancels batch jobs, and deletes the secret it wrote on each host; the hosts' logs are kept
     * only when something failed (or {@link #keepLogs()} was called), and where is logged once. Safe to call more
     * than once.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (state == State.CLOSED) {
                return;
            }
            final boolean started = state == State.STARTED;
            state = State.CLOSED;
            if (!started) {
                return;
            }
        }
        if (Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down; the hook closing this is then a no-op
            }
        }
        unsubscribe.forEach(Runnable::run);
        virtualNodes.values().forEach(VirtualNode::close);
        nodeRuntimes.keySet().forEach(rt -> runtime.release(rt, "deployment " + id + " closed"));
        final boolean keep = keepLogs || !failures().isEmpty();
        final List<Thread> stopping = new ArrayList<>();
        for (final Launch l : launches.keySet()) {
            stopping.add(Thread.ofVirtual().start(() -> l.stop(keep)));
        }
        for (final Thread t : stopping) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (current == this) {
            current = null;
        }
        final List<String> kept = keptLogs();
        if (kept.isEmpty()) {
            LOG.info("Deployment {} closed", id);
        } else {
            LOG.warn("Deployment {} closed; its logs are kept in {}", id, String.join(", ", kept));
        }
    }

    /** Where the hosts' logs were kept when this closed (see {@link #close()}): none before, or if none were. */
    public List<String> keptLogs() {
        return launches.keySet().stream()
                .map(Launch::keptLogs)
                .filter(Objects::nonNull)
                .toList();
    }

    @Override
    public String toString() {
        return "Deployment[" + id + ", " + descriptor.source() + ", " + progress() + "]";
    }
}
