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
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.deploy.descriptor.ProcessSpec;

/**
 * One process chain of a descriptor being started for one virtual node: it walks the chain (local, ssh hops, then
 * JVMs or a batch job), and undoes all of it on {@link #stop}. Its node JVMs name their nodes with
 * {@link #namePrefix()}, which is how their registrations are told apart.
 */
public final class Launch {
    private static final Logger LOG = LoggerFactory.getLogger(Launch.class);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofSeconds(2);
    private static final int UNREADABLE_POLLS = 5;

    /** What a launch needs from its deployment. */
    public record Context(String deploymentId, String parentAddress, String secret, Map<String, String> env,
                          Path sshDir, String javaHome, String classpath) {
    }

    /** What a launch reports while it runs. */
    public interface Events {
        /** What it started has ended by itself (JVMs exited, a job finished or was cancelled, a host was lost). */
        void ended(Launch launch, String why);

        /** A part of it failed: {@code nodes} of its nodes will not come (if they have not yet). */
        void lost(Launch launch, int nodes, String why);
    }

    private final Context context;
    private final ProcessSpec chain;
    private final String label;
    private final String namePrefix;
    private final Events events;
    private final Deque<Runnable> undo = new ArrayDeque<>();
    private final List<Host> hosts = new ArrayList<>();
    private volatile String status = "not started";
    private boolean stopped;

    /**
     * @param label names this launch in logs and messages, e.g. {@code jem3d-1}
     * @param namePrefix what the names of this launch's nodes start with
     */
    public Launch(final Context context, final ProcessSpec chain, final String label, final String namePrefix,
                  final Events events) {
        this.context = context;
        this.chain = chain;
        this.label = label;
        this.namePrefix = namePrefix;
        this.events = events;
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
        Host host = own(new LocalHost(context.deploymentId()));
        boolean stage = false;
        ProcessSpec p = chain;
        while (true) {
            switch (p) {
                case ProcessSpec.Local l -> p = l.child();
                case ProcessSpec.Ssh s -> {
                    status = "connecting to " + s.host() + ":" + s.port();
                    host = own(SshHost.connect(s, host, context.sshDir(), context.deploymentId()));
                    stage = s.stage();
                    p = s.child();
                }
                case ProcessSpec.Jvm j -> {
                    startJvms(host, j, stage);
                    return;
                }
                case ProcessSpec.Pbs b -> {
                    submit(host, BatchSystem.PBS, b, stage);
                    return;
                }
                case ProcessSpec.Slurm s -> {
                    submit(host, BatchSystem.SLURM, s, stage);
                    return;
                }
            }
        }
    }

    /** Runs the JVM script on {@code host}; each JVM that fails is reported at once, with its log. */
    private void startJvms(final Host host, final ProcessSpec.Jvm jvm, final boolean stage) {
        final String script = writeJvmScript(host, jvm, stage, true);
        final Host.Background running = host.start("exec sh " + Scripts.quote(script),
            line -> jvmEnded(host, jvm, line));
        onStop(running::stop);
        running.onExit(code -> ended(() -> code == -1 ? "the SSH session to " + host.describe() + " was lost (its"
            + " JVMs exit once their link to this JVM ends)" : "its JVMs on " + host.describe() + " ended (exit code "
            + code + ")" + logTail(host)));
        status = "JVMs started";
    }

    /** This launch's secret file on {@code host}: its own, so that its scripts may delete it when they end. */
    private String secretFile(final Host host) {
        return host.workDir() + "/" + label + Scripts.SECRET_SUFFIX;
    }

    /** Reports a JVM that failed, from the JVM script's {@link Scripts#JVM_EXIT} line (other lines are ignored). */
    private void jvmEnded(final Host host, final ProcessSpec.Jvm jvm, final String line) {
        if (line.startsWith(Scripts.JVM_EXIT)) {
            final String[] exit = line.substring(Scripts.JVM_EXIT.length()).split(" ", 2);
            if (!exit[0].equals("0") && exit.length == 2 && !isStopped()) {
                events.lost(this, jvm.nodesPerJvm(), "a JVM on " + host.describe() + " exited with code " + exit[0]
                    + logTail(host, exit[1]));
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

    /** Writes the secret and the JVM script on {@code host}; returns the script's path there. */
    private String writeJvmScript(final Host host, final ProcessSpec.Jvm jvm, final boolean stage,
                                  final boolean removeSecret) {
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
        final Scripts.JvmCommand command = new Scripts.JvmCommand(
            (jvm.javaHome().isEmpty() ? context.javaHome() : jvm.javaHome()) + "/bin/java", classpath,
            jvm.jvmOptions(), env, jvm.count(), jvm.nodesPerJvm(), secretFile, context.parentAddress(), namePrefix,
            host.workDir() + "/logs", label, removeSecret);
        host.write(script, Scripts.jvms(command).getBytes(StandardCharsets.UTF_8), 0700);
        return script;
    }

    /**
     * Submits the job that starts the JVMs on the nodes it books, then watches it until it ends. The cancel is
     * registered first: a submission cut short (a timeout, a close) may still have made the job.
     */
    private void submit(final Host host, final BatchSystem batch, final ProcessSpec.Launcher spec,
                        final boolean stage) {
        final String jvms = writeJvmScript(host, jvmAfter(spec), stage, false);
        final String job = host.workDir() + "/" + label + "-job.sh";
        host.write(job, batch.jobScript(spec, jvms, secretFile(host)).getBytes(StandardCharsets.UTF_8), 0700);
        final String log = host.workDir() + "/logs/" + label + "-job.log";
        final String name = "troupe-" + context.deploymentId() + "-" + label;
        final AtomicReference<String> jobId = new AtomicReference<>();
        onStop(() -> cancel(host, batch, jobId.get(), name));
        status = "submitting to " + host.describe();
        final Host.Result r = host.run(batch.submit(spec, name, log, job), COMMAND_TIMEOUT);
        final String id = r.out().strip().split("[;\\s]", 2)[0];
        if (!r.ok() || id.isEmpty()) {
            throw new LaunchException(host.describe() + ": the batch system refused the job: "
                + batch.submitCommand() + " gave " + r.explain());
        }
        jobId.set(id);
        status = "job " + id + " submitted";
        LOG.info("Deployment launch {}: job {} submitted on {}", label, id, host.describe());
        Thread.ofVirtual().name("troupe-job-" + id).start(() -> watch(host, batch, id, jvmAfter(spec), log));
    }

    /** Cancels a job and waits (a bounded time) until the batch system no longer runs it. */
    private static void cancel(final Host host, final BatchSystem batch, final String id, final String name) {
        if (id == null) {
            host.run(batch.cancelByName(name) + " 2>/dev/null; true", COMMAND_TIMEOUT);
            return;
        }
        host.run(batch.cancel(id) + " 2>/dev/null; true", COMMAND_TIMEOUT);
        final long deadline = System.nanoTime() + COMMAND_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            final BatchSystem.JobState state = batch.state(host.run(batch.stateCommand(id), COMMAND_TIMEOUT));
            if (state != null && state.ended()) {
                return;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Polls the job's state for the progress line, and the JVMs' ends in its output (the JVM script prints them
     * there), reporting failed JVMs at once and the job's end; a state unreadable 5 times in a row is an end.
     */
    private void watch(final Host host, final BatchSystem batch, final String id, final ProcessSpec.Jvm jvm,
                       final String log) {
        int unreadable = 0;
        long exitsSeen = 0;
        while (!isStopped()) {
            BatchSystem.JobState state;
            String why;
            try {
                Thread.sleep(POLL);
                final Host.Result r = host.run(batch.stateCommand(id), COMMAND_TIMEOUT);
                state = batch.state(r);
                why = r.explain();
                final List<String> exits = host.run("grep -h '^" + Scripts.JVM_EXIT + "' " + Scripts.quote(log)
                    + " 2>/dev/null", COMMAND_TIMEOUT).out().lines().toList();
                exits.stream().skip(exitsSeen).forEach(line -> jvmEnded(host, jvm, line));
                exitsSeen = Math.max(exitsSeen, exits.size());
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                state = null;
                why = e.getMessage();
            }
            if (state == null) {
                if (++unreadable == UNREADABLE_POLLS) {
                    final String cause = why;
                    ended(() -> "the state of batch job " + id + " cannot be read on " + host.describe() + ": "
                        + cause);
                    return;
                }
                continue;
            }
            unreadable = 0;
            status = "job " + id + " " + state.text();
            if (state.ended()) {
                final String text = state.text();
                ended(() -> "batch job " + id + " ended (" + text + ")" + logTail(host));
                return;
            }
        }
    }

    /** Reports the end, unless it was asked for; {@code why} reads logs, so it is not worked out after a stop. */
    private void ended(final java.util.function.Supplier<String> why) {
        if (!isStopped()) {
            events.ended(this, why.get());
        }
    }

    /** The last lines of {@code files} on {@code host} (by default: all this launch's logs), for a message. */
    private String logTail(final Host host, final String... files) {
        try {
            final StringBuilder names = new StringBuilder();
            for (final String f : files) {
                names.append(' ').append(Scripts.quote(f));
            }
            if (files.length == 0) {
                names.append(' ').append(Scripts.quote(host.workDir() + "/logs")).append('/')
                    .append(Scripts.quote(label)).append("-*.log");
            }
            final String tail = host.run("tail -q -n 4" + names + " 2>/dev/null", COMMAND_TIMEOUT).out().strip();
            return tail.isEmpty() ? "" : "; the last lines of its logs (kept in " + host.workDir() + "/logs on "
                + host.describe() + "): " + Scripts.lastLines(tail, 6);
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

    private void onStop(final Runnable action) {
        synchronized (this) {
            if (!stopped) {
                undo.push(action);
                return;
            }
        }
        action.run();
    }

    private synchronized boolean isStopped() {
        return stopped;
    }

    /**
     * Undoes everything this launch started, newest first: JVMs, jobs, then the hosts' sessions and private
     * directories (whose logs stay when {@code keepLogs}).
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
                LOG.warn("Deployment launch {}: releasing {} failed: {}", label, owned.get(i).describe(),
                    e.getMessage());
            }
        }
        status = "stopped";
    }
}
