package org.troupe.deploy.launch;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.config.TroupeSettings;
import org.troupe.core.CoreConfig;
import org.troupe.deploy.descriptor.ProcessSpec;

/**
 * One process chain of a descriptor being started for one virtual node: it walks the chain (local, ssh hops, then
 * JVMs or a batch job, which a {@link BatchJob} follows), and undoes all of it on {@link #stop}. Its node JVMs name
 * their nodes with {@link #namePrefix()}, which is how their registrations are told apart.
 */
public final class Launch {
    private static final Logger LOG = LoggerFactory.getLogger(Launch.class);
    /** How long a command on a launch's host may take. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

    /**
     * What a launch needs from its deployment.
     *
     * @param parentAddress the {@code host:port} its node JVMs dial, or several, comma-separated: the first that
     *     answers
     * @param jvmFlags what every node JVM gets before the descriptor's own options (which win)
     * @param localSettings what node JVMs started from this host (which inherit its environment) get after
     *     {@code jvmFlags}: the deployment's {@code -Dtroupe.*} settings
     * @param relayOutput whether the lines the node JVMs print are reported ({@link Events#output}), besides being
     *     written to their logs
     */
    public record Context(
            String deploymentId,
            String parentAddress,
            String secret,
            Map<String, String> env,
            Path sshDir,
            String javaHome,
            String classpath,
            List<String> jvmFlags,
            List<String> localSettings,
            boolean relayOutput) {
        /**
         * The settings that say where a runtime listens, which are this host's and its runtime's alone: node JVMs
         * started from this host do not inherit them (through the environment or {@link #localSettings}); each
         * chooses its own, unless its {@code <jvm>} says.
         */
        public static final List<String> HOST_SETTINGS = List.of(
                CoreConfig.BIND_ADDRESS_PROP_NAME, CoreConfig.ADVERTISE_ADDRESS_PROP_NAME, CoreConfig.PORT_PROP_NAME);

        /** This context, its node JVMs dialing {@code parent} instead. */
        public Context withParentAddress(final String parent) {
            return new Context(
                    deploymentId,
                    parent,
                    secret,
                    env,
                    sshDir,
                    javaHome,
                    classpath,
                    jvmFlags,
                    localSettings,
                    relayOutput);
        }

        /** This context, its node JVMs started from this host getting {@code option} too. */
        public Context withLocalSetting(final String option) {
            final List<String> settings = new ArrayList<>(localSettings);
            settings.add(option);
            return new Context(
                    deploymentId,
                    parentAddress,
                    secret,
                    env,
                    sshDir,
                    javaHome,
                    classpath,
                    jvmFlags,
                    List.copyOf(settings),
                    relayOutput);
        }
    }

    /** What a launch reports while it runs. */
    public interface Events {
        /** What it started has ended by itself (JVMs exited, a job finished or was cancelled, a host was lost). */
        void ended(Launch launch, String why);

        /**
         * One of its JVMs (process {@code pid} on its host) ended with an error: if it had not called home, its
         * {@code nodes} nodes will not come.
         */
        void jvmFailed(Launch launch, long pid, int nodes, String why);

        /**
         * A line node JVM {@code jvm} printed (on its standard error if {@code stderr}), or a line of the launch's
         * own scripts or job ({@code jvm} is then the launch's label); when the context relays output.
         */
        void output(Launch launch, String jvm, boolean stderr, String text);
    }

    private final Context context;
    private final ProcessSpec chain;
    private final String label;
    private final String namePrefix;
    private final Events events;
    private final String virtualNode;
    private final int firstJvm;
    /** The host the JVMs or the job run from: their logs are there. */
    private volatile Host logHost;

    private volatile String keptLogs;
    private final Deque<Runnable> undo = new ArrayDeque<>();
    private final List<Host> hosts = new ArrayList<>();
    private volatile String status = "not started";
    private boolean stopped;

    /**
     * @param label names this launch in logs and messages, e.g. {@code jem3d-1}
     * @param namePrefix what the names of this launch's nodes start with
     * @param virtualNode the virtual node its nodes attach to: its JVMs are called {@code virtualNode-N}
     * @param firstJvm the N of its first JVM less one: the JVMs of the virtual node's earlier launches
     */
    public Launch(
            final Context context,
            final ProcessSpec chain,
            final String label,
            final String namePrefix,
            final Events events,
            final String virtualNode,
            final int firstJvm) {
        this.context = context;
        this.chain = chain;
        this.label = label;
        this.namePrefix = namePrefix;
        this.events = events;
        this.virtualNode = virtualNode;
        this.firstJvm = firstJvm;
    }

    /**
     * A launch of {@code other} (this one's chain changed, say) with this one's context and events: more nodes of
     * the same virtual node, reached the same way.
     */
    public Launch another(final ProcessSpec other, final String label, final String namePrefix, final int firstJvm) {
        return new Launch(context, other, label, namePrefix, events, virtualNode, firstJvm);
    }

    /** The process chain it starts. */
    public ProcessSpec chain() {
        return chain;
    }

    /** The JVMs of {@code chain} when all of it starts. */
    public static int jvmsOffered(final ProcessSpec chain) {
        ProcessSpec p = chain;
        while (p instanceof ProcessSpec.Launcher l) {
            p = l.child();
        }
        return chain.nodesOffered() / ((ProcessSpec.Jvm) p).nodesPerJvm();
    }

    public String label() {
        return label;
    }

    public String namePrefix() {
        return namePrefix;
    }

    /** The nodes this launch brings when all of it starts. */
    public int expected() {
        return chain.nodesOffered();
    }

    /** Where the launch stands, for a progress line. */
    public String status() {
        return status;
    }

    /** Where the launch stands now (its batch job's progress, say). */
    void status(final String now) {
        status = now;
    }

    String deploymentId() {
        return context.deploymentId();
    }

    /** Whether the lines its JVMs, scripts and jobs print are reported. */
    boolean relaysOutput() {
        return context.relayOutput();
    }

    /**
     * The name of the JVM that holds the node {@code nodeName} of this launch ({@code workers-3}: the name its output,
     * its log and its nodes' names carry), or null if the node is not this launch's or its name says none.
     */
    public String jvmNameOf(final String nodeName) {
        if (!nodeName.startsWith(namePrefix)) {
            return null;
        }
        final String rest = nodeName.substring(namePrefix.length());
        final int dash = rest.lastIndexOf('-');
        final String jvm = dash > 0 ? rest.substring(0, dash) : "";
        return jvm.startsWith(virtualNode + "-") ? jvm : null;
    }

    /** The chain, step by step: {@code local 'here' -> jvm 'nodes'}. */
    public String describeChain() {
        final List<String> steps = new ArrayList<>();
        for (ProcessSpec p = chain; p != null; p = p instanceof ProcessSpec.Launcher l ? l.child() : null) {
            steps.add(p.describe().replaceFirst(":.*", ""));
        }
        return String.join(" -> ", steps);
    }

    /**
     * Walks the chain and starts its JVMs or submits its job; returns once they are under way.
     *
     * @throws LaunchException when a step fails; what the earlier steps started is then undone by {@link #stop}
     */
    public void start() {
        SshHost remote = null; // the last SSH hop; none: the last step runs here
        boolean stage = false;
        ProcessSpec p = chain;
        while (p instanceof ProcessSpec.Local || p instanceof ProcessSpec.Ssh) {
            if (p instanceof ProcessSpec.Ssh s) {
                status = "connecting to " + s.host() + ":" + s.port();
                remote = own(SshHost.connect(s, remote, context.sshDir(), context.deploymentId()));
                stage = s.stage();
            }
            p = ((ProcessSpec.Launcher) p).child();
        }
        final Host host = remote != null ? remote : own(new LocalHost(context.deploymentId()));
        logHost = host;
        switch (p) {
            case ProcessSpec.Jvm j -> startJvms(host, j, stage);
            case ProcessSpec.Pbs b -> submit(host, BatchSystem.PBS, b, stage);
            case ProcessSpec.Slurm s -> submit(host, BatchSystem.SLURM, s, stage);
            default -> throw new IllegalStateException("local and ssh steps are walked above, not " + p);
        }
    }

    /** Runs the JVM script on {@code host}; each JVM that fails is reported at once, with its log. */
    private void startJvms(final Host host, final ProcessSpec.Jvm jvm, final boolean stage) {
        final String script = writeJvmScript(host, jvm, stage, true, false);
        final Host.Background running =
                host.start("exec sh " + Scripts.quote(script), line -> scriptLine(host, jvm, line));
        onStop(running::stop);
        running.onExit(code -> {
            if (code == -1) { // the JVMs, linked to this JVM by their own connections, run on
                LOG.warn(
                        "Deployment launch {}: the SSH session to {} was lost; its JVMs run on, and a new session"
                                + " stops them when the deployment closes",
                        label,
                        host.describe());
            } else {
                ended(() -> "its JVMs on " + host.describe() + " ended (exit code " + code + ")" + logTail(host));
            }
        });
        status = "JVMs started";
    }

    /** This launch's secret file on {@code host}: its own, so that its scripts may delete it when they end. */
    private String secretFile(final Host host) {
        return host.workDir() + "/" + label + Scripts.SECRET_SUFFIX;
    }

    /**
     * A line of a JVM script's (or a batch job's) output: a JVM's end ({@link Scripts#JVM_EXIT}), a line a JVM
     * printed ({@link Scripts#OUT}, {@link Scripts#ERR}), or the script's own.
     */
    void scriptLine(final Host host, final ProcessSpec.Jvm jvm, final String line) {
        final boolean out = line.startsWith(Scripts.OUT);
        if (out || line.startsWith(Scripts.ERR)) {
            final String[] f = line.split(" ", 3); // tag, JVM name, text
            if (f.length >= 2 && f[1].startsWith(virtualNode + "-")) {
                events.output(this, f[1], !out, f.length == 3 ? f[2] : "");
                return;
            }
        }
        if (line.startsWith(Scripts.JVM_EXIT)) {
            jvmEnded(host, jvm, line);
        } else if (context.relayOutput()) {
            events.output(this, label, true, line);
        }
    }

    /** Reports a JVM that failed, from the JVM script's {@link Scripts#JVM_EXIT} line (other lines are ignored). */
    void jvmEnded(final Host host, final ProcessSpec.Jvm jvm, final String line) {
        if (line.startsWith(Scripts.JVM_EXIT)) {
            final String[] exit = line.substring(Scripts.JVM_EXIT.length()).split(" ", 3);
            if (exit.length == 3 && !exit[0].equals("0") && exit[1].matches("[0-9]{1,18}") && !isStopped()) {
                events.jvmFailed(
                        this,
                        Long.parseLong(exit[1]),
                        jvm.nodesPerJvm(),
                        "a JVM on " + host.describe() + " exited with code " + exit[0] + logTail(host, exit[2]));
            }
        }
    }

    /** The JVM step a batch step starts on its nodes (the loader checked that one follows, maybe through local). */
    private static ProcessSpec.Jvm jvmAfter(final ProcessSpec.Launcher batch) {
        ProcessSpec p = batch.child();
        while (p instanceof ProcessSpec.Local l) {
            p = l.child();
        }
        return (ProcessSpec.Jvm) p;
    }

    /**
     * Writes the secret and the JVM script on {@code host}; returns the script's path there. {@code batchTasks}: the
     * script runs once per task of a batch job, each naming its JVMs after the tasks before it.
     */
    private String writeJvmScript(
            final Host host,
            final ProcessSpec.Jvm jvm,
            final boolean stage,
            final boolean removeSecret,
            final boolean batchTasks) {
        final String secretFile = secretFile(host);
        host.write(secretFile, context.secret().getBytes(StandardCharsets.UTF_8), 0600);
        final String classpath;
        if (!jvm.classpath().isEmpty()) {
            classpath = jvm.classpath();
        } else if (stage) {
            status = "staging the class path on " + host.describe();
            classpath = Staging.stage(host, context.classpath());
        } else {
            classpath = context.classpath();
        }
        final Map<String, String> env = new LinkedHashMap<>(context.env());
        env.putAll(jvm.env());
        final String script = host.workDir() + "/" + label + "-jvms.sh";
        final List<String> options = new ArrayList<>(context.jvmFlags());
        final boolean here = host instanceof LocalHost;
        if (here) {
            options.addAll(context.localSettings());
        }
        options.addAll(jvm.jvmOptions());
        final Scripts.JvmCommand command = new Scripts.JvmCommand(
                (jvm.javaHome().isEmpty() ? context.javaHome() : jvm.javaHome()) + "/bin/java",
                classpath,
                options,
                env,
                jvm.count(),
                jvm.nodesPerJvm(),
                secretFile,
                context.parentAddress(),
                namePrefix,
                host.workDir() + "/logs",
                label,
                removeSecret,
                context.relayOutput(),
                new Scripts.JvmNames(virtualNode + "-", firstJvm, batchTasks));
        // What this host's environment says of where its runtime listens is not the JVMs' to inherit (the script's
        // exports of <env> come after): their host may be another (a batch job's), and their ports are their own.
        final String unset = here
                ? Scripts.unset(Context.HOST_SETTINGS.stream()
                        .map(TroupeSettings::environmentVariable)
                        .toList())
                : "";
        host.write(script, (unset + Scripts.jvms(command)).getBytes(StandardCharsets.UTF_8), 0700);
        return script;
    }

    /** Writes the JVM script, then submits the batch job that runs it on the nodes it books, and watches it. */
    private void submit(
            final Host host, final BatchSystem batch, final ProcessSpec.Launcher spec, final boolean stage) {
        final ProcessSpec.Jvm jvm = jvmAfter(spec);
        final String jvms = writeJvmScript(host, jvm, stage, false, true);
        new BatchJob(this, host, batch, spec, jvm).submit(jvms, secretFile(host));
    }

    /** Reports the end, unless it was asked for; {@code why} reads logs, so it is not worked out after a stop. */
    void ended(final Supplier<String> why) {
        if (!isStopped()) {
            events.ended(this, why.get());
        }
    }

    /**
     * What the ends of {@code files} on {@code host} (by default: all this launch's logs) say went wrong, for a
     * message: the lines that matter among their last ones ({@link Scripts#tellingLines}).
     */
    String logTail(final Host host, final String... files) {
        try {
            final StringBuilder names = new StringBuilder();
            for (final String f : files) {
                names.append(' ').append(Scripts.quote(f));
            }
            if (files.length == 0) {
                names.append(' ')
                        .append(Scripts.quote(host.workDir() + "/logs"))
                        .append('/')
                        .append(Scripts.quote(label))
                        .append("-*.log");
            }
            final String tail = host.run("tail -q -n 40" + names + " 2>/dev/null", COMMAND_TIMEOUT)
                    .out()
                    .strip();
            final String telling = Scripts.tellingLines(tail, 6);
            // where the logs are kept is said once, when the deployment closes
            return telling.isEmpty() ? "" : "; from its logs: " + telling;
        } catch (RuntimeException e) {
            return "";
        }
    }

    private <H extends Host> H own(final H host) {
        synchronized (this) {
            if (!stopped) {
                hosts.add(host);
                return host;
            }
        }
        host.release(false);
        throw new LaunchException("the deployment was closed while " + label + " was starting");
    }

    /** Registers {@code action} to undo something this launch started; runs it now if the launch was stopped. */
    void onStop(final Runnable action) {
        synchronized (this) {
            if (!stopped) {
                undo.push(action);
                return;
            }
        }
        action.run();
    }

    synchronized boolean isStopped() {
        return stopped;
    }

    /**
     * Undoes everything this launch started, newest first: JVMs, jobs, then the hosts' sessions and private
     * directories (whose logs stay when {@code keepLogs}: {@link #keptLogs()} says where).
     */
    public void stop(final boolean keepLogs) {
        final List<Runnable> actions;
        final List<Host> owned;
        synchronized (this) {
            if (stopped) {
                return;
            }
            stopped = true;
            actions = new ArrayList<>(undo);
            owned = new ArrayList<>(hosts);
        }
        for (final Runnable a : actions) {
            try {
                a.run();
            } catch (RuntimeException e) {
                LOG.warn("Deployment launch {}: stopping it failed: {}", label, e.getMessage());
            }
        }
        for (int i = owned.size() - 1; i >= 0; i--) {
            try {
                owned.get(i).release(keepLogs);
            } catch (RuntimeException e) {
                LOG.warn(
                        "Deployment launch {}: releasing {} failed: {}",
                        label,
                        owned.get(i).describe(),
                        e.getMessage());
            }
        }
        final Host h = logHost;
        if (keepLogs && h != null) {
            keptLogs = h.workDir() + "/logs" + (h instanceof LocalHost ? "" : " on " + h.describe());
        }
        status = "stopped";
    }

    /**
     * Where this launch's logs stay after a {@link #stop} that kept them (a directory, and its host unless it is this
     * one), or null.
     */
    public String keptLogs() {
        return keptLogs;
    }
}
