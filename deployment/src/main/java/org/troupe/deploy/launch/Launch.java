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
import java.util.Set;
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
    private static final Set<String> JOB_ENDED = Set.of("", "C", "E", "F", "COMPLETED", "FAILED", "CANCELLED",
        "TIMEOUT", "NODE_FAIL", "PREEMPTED", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE");

    /** What a launch needs from its deployment. */
    public record Context(String deploymentId, String parentAddress, String secret, Map<String, String> env,
                          Path sshDir, String javaHome, String classpath) {
    }

    /** Told when what a launch started has ended by itself (JVMs exited, a job finished or was cancelled). */
    public interface Events {
        void ended(Launch launch, String why);
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
                    final String script = writeJvmScript(host, j, stage);
                    final Host where = host;
                    final Host.Background running = host.start("exec sh " + Scripts.quote(script));
                    onStop(running::stop);
                    running.onExit(code -> ended("its JVMs on " + where.describe() + " ended (exit code " + code
                        + ")" + logTail(where)));
                    status = "JVMs started";
                    return;
                }
                case ProcessSpec.Pbs b -> {
                    final String jvms = writeJvmScript(host, jvmAfter(b), stage);
                    final String job = host.workDir() + "/" + label + "-job.sh";
                    host.write(job, Scripts.pbsJob(b.nodes(), jvms).getBytes(StandardCharsets.UTF_8), 0700);
                    final String log = host.workDir() + "/logs/" + label + "-job.log";
                    submit(host, "qsub -N " + Scripts.quote("troupe-" + context.deploymentId() + "-" + label) + " -l " + Scripts.quote("nodes="
                        + b.nodes() + ":ppn=" + b.processorsPerNode()) + " -l " + Scripts.quote("walltime="
                        + b.walltime()) + (b.queue().isEmpty() ? "" : " -q " + Scripts.quote(b.queue())) + " -j oe -o "
                        + Scripts.quote(log) + " " + Scripts.quote(job), "qdel",
                        "qstat -f %s 2>/dev/null | sed -n 's/.*job_state = //p'", log);
                    return;
                }
                case ProcessSpec.Slurm s -> {
                    final String jvms = writeJvmScript(host, jvmAfter(s), stage);
                    final String job = host.workDir() + "/" + label + "-job.sh";
                    host.write(job, Scripts.slurmJob(jvms).getBytes(StandardCharsets.UTF_8), 0700);
                    final String log = host.workDir() + "/logs/" + label + "-job.log";
                    submit(host, "sbatch --parsable --job-name=" + Scripts.quote("troupe-" + context.deploymentId() + "-" + label) + " --nodes="
                        + s.nodes() + " --ntasks=" + s.tasks() + " --time=" + Scripts.quote(s.time())
                        + (s.partition().isEmpty() ? "" : " --partition=" + Scripts.quote(s.partition()))
                        + " --output=" + Scripts.quote(log) + " " + Scripts.quote(job), "scancel",
                        "squeue -h -j %s -o %%T 2>/dev/null", log);
                    return;
                }
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
    private String writeJvmScript(final Host host, final ProcessSpec.Jvm jvm, final boolean stage) {
        final String secretFile = host.workDir() + "/" + Scripts.SECRET;
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
            host.workDir() + "/logs", label);
        host.write(script, Scripts.jvms(command).getBytes(StandardCharsets.UTF_8), 0700);
        return script;
    }

    /** Submits a job with {@code submit}; cancels it with {@code cancel} on stop; watches it with {@code state}. */
    private void submit(final Host host, final String submit, final String cancel, final String state,
                        final String log) {
        status = "submitting to " + host.describe();
        final Host.Result r = host.run(submit, COMMAND_TIMEOUT);
        final String id = r.out().strip().split("[;\\s]", 2)[0];
        if (!r.ok() || id.isEmpty()) {
            throw new LaunchException(host.describe() + ": the batch system refused the job: "
                + submit.replaceFirst(" .*", "") + " gave " + r.explain());
        }
        final String stateOfJob = state.formatted(Scripts.quote(id));
        onStop(() -> cancel(host, cancel + " " + Scripts.quote(id) + " 2>/dev/null; true", stateOfJob));
        status = "job " + id + " submitted";
        LOG.info("Deployment launch {}: job {} submitted on {}", label, id, host.describe());
        Thread.ofVirtual().name("troupe-job-" + id).start(() -> watch(host, id, stateOfJob, log));
    }

    /** Cancels a job and waits (a bounded time) until the batch system no longer runs it. */
    private static void cancel(final Host host, final String cancel, final String stateOfJob) {
        host.run(cancel, COMMAND_TIMEOUT);
        final long deadline = System.nanoTime() + COMMAND_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline
            && !JOB_ENDED.contains(host.run(stateOfJob, COMMAND_TIMEOUT).out().strip())) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void watch(final Host host, final String id, final String stateCommand, final String log) {
        while (!isStopped()) {
            final String state;
            try {
                Thread.sleep(POLL);
                state = host.run(stateCommand, COMMAND_TIMEOUT).out().strip();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!isStopped()) {
                    LOG.debug("Launch {}: cannot read the state of job {}: {}", label, id, e.getMessage());
                }
                continue;
            }
            status = "job " + id + " " + (state.isEmpty() ? "gone" : state.toLowerCase(java.util.Locale.ROOT));
            if (JOB_ENDED.contains(state)) {
                ended("batch job " + id + " ended (" + (state.isEmpty() ? "no longer listed" : state) + ")"
                    + logTail(host, log));
                return;
            }
        }
    }

    private void ended(final String why) {
        if (!isStopped()) {
            events.ended(this, why);
        }
    }

    /** The last lines of this launch's logs on {@code host}, for a failure message. */
    private String logTail(final Host host, final String... more) {
        try {
            final StringBuilder files = new StringBuilder(Scripts.quote(host.workDir() + "/logs") + "/"
                + Scripts.quote(label) + "-*.log");
            for (final String f : more) {
                files.append(' ').append(Scripts.quote(f));
            }
            final String tail = host.run("tail -q -n 4 " + files + " 2>/dev/null", COMMAND_TIMEOUT).out().strip();
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
