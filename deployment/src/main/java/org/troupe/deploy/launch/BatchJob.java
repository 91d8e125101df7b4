package org.troupe.deploy.launch;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.deploy.descriptor.ProcessSpec;

/**
 * The batch job (PBS or Slurm) a {@link Launch} submits to start its JVMs on the nodes the job books, from the
 * submission to the job's end or cancel.
 *
 * <p>Lifecycle: {@link #submit} writes the job's script and submits it, once; the job's cancel is registered with the
 * launch first, so that a stop during the submission does not leave the job behind. Once submitted, the job is
 * watched until it ends: its state for the launch's progress line, the ends of its JVMs (failed ones reported at
 * once), and, when output is relayed, the lines its log gains; its end, unless asked for, ends the launch. When the
 * launch stops, the watch is ended first (its poll in flight is waited for), then the job is cancelled.
 *
 * <p>Threads: {@link #submit} runs on the thread that starts the launch; the watch on a thread of its own,
 * {@code troupe-job-ID}; the end of the watch and the cancel on the thread that stops the launch.
 */
final class BatchJob {
    private static final Logger LOG = LoggerFactory.getLogger(BatchJob.class);
    private static final Duration POLL = Duration.ofSeconds(2);

    private final Launch launch;
    private final Host host;
    private final BatchSystem batch;
    private final ProcessSpec.Launcher spec;
    /** The JVM step the job starts on its nodes. */
    private final ProcessSpec.Jvm jvm;
    /** The thread that polls the job's state, while it runs. */
    private volatile Thread watcher;

    /** The job of {@code launch}'s batch step {@code spec}, on {@code host}, starting {@code jvm}. */
    BatchJob(
            final Launch launch,
            final Host host,
            final BatchSystem batch,
            final ProcessSpec.Launcher spec,
            final ProcessSpec.Jvm jvm) {
        this.launch = launch;
        this.host = host;
        this.batch = batch;
        this.spec = spec;
        this.jvm = jvm;
    }

    /**
     * Submits the job that runs the JVM script {@code jvmScript} (which reads the secret in {@code secretFile}),
     * then watches it on a thread of its own until it ends.
     *
     * @throws LaunchException when the batch system refuses the job
     */
    void submit(final String jvmScript, final String secretFile) {
        final String label = launch.label();
        final String job = host.workDir() + "/" + label + "-job.sh";
        host.write(job, batch.jobScript(spec, jvmScript, secretFile).getBytes(StandardCharsets.UTF_8), 0700);
        final String log = host.workDir() + "/logs/" + label + "-job.log";
        final String name = "troupe-" + launch.deploymentId() + "-" + label;
        final CompletableFuture<String> jobId = new CompletableFuture<>();
        launch.onStop(() -> cancel(jobId, name));
        launch.onStop(this::stopWatching); // undone first: its poll in flight ends before the job is cancelled
        launch.status("submitting to " + host.describe());
        try {
            final Host.Result r = host.run(batch.submit(spec, name, log, job), Launch.COMMAND_TIMEOUT);
            final String id = r.out().strip().split("[;\\s]", 2)[0];
            if (!r.ok() || id.isEmpty()) {
                throw new LaunchException(host.describe() + ": the batch system refused the job: "
                        + batch.submitCommand() + " gave " + r.explain());
            }
            jobId.complete(id);
            launch.status("job " + id + " submitted");
            LOG.info("Deployment launch {}: job {} submitted on {}", label, id, host.describe());
            watcher = Thread.ofVirtual().name("troupe-job-" + id).start(() -> watch(id, log));
        } finally {
            jobId.complete(null); // no id: the cancel goes by name
        }
    }

    /**
     * Ends the watch: interrupts its poll in flight and waits, a bounded time, for it to end, so that nothing is
     * undone under it. Does nothing on the watch's own thread.
     */
    private void stopWatching() {
        final Thread w = watcher;
        if (w != null && w != Thread.currentThread()) {
            w.interrupt();
            try {
                w.join(5_000); // a command that hangs is not waited for long
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Cancels the job (by name if its submission said no id) and waits, a bounded time, until the batch system no
     * longer lists it as running.
     */
    private void cancel(final CompletableFuture<String> jobId, final String name) {
        final String id;
        try {
            id = jobId.get(Launch.COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (ExecutionException | TimeoutException e) {
            host.run(batch.cancelByName(name) + " 2>/dev/null; true", Launch.COMMAND_TIMEOUT);
            return;
        }
        if (id == null) {
            host.run(batch.cancelByName(name) + " 2>/dev/null; true", Launch.COMMAND_TIMEOUT);
            return;
        }
        host.run(batch.cancel(id) + " 2>/dev/null; true", Launch.COMMAND_TIMEOUT);
        final long deadline = System.nanoTime() + Launch.COMMAND_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            final BatchSystem.JobState state = batch.state(host.run(batch.stateCommand(id), Launch.COMMAND_TIMEOUT));
            if (state == null || state.ended()) {
                return; // ended, or the batch system does not say: waiting longer would not tell more
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
     * Polls the job's state for the progress line, and the ends of its JVMs (which the JVM scripts append to their
     * exits files), reporting failed JVMs at once and the job's end; and, when output is relayed, the lines the job's
     * log gained. A state that cannot be read is shown, not taken for an end: the batch system or the front-end may
     * be back at the next poll.
     */
    private void watch(final String id, final String log) {
        final Set<String> exitsSeen = new HashSet<>();
        long logRead = 0;
        while (!launch.isStopped()) {
            final BatchSystem.JobState state;
            try {
                Thread.sleep(POLL);
                if (launch.isStopped()) { // no command may start once the launch is stopped: it would outlive it
                    return;
                }
                final Host.Result r = host.run(batch.stateCommand(id), Launch.COMMAND_TIMEOUT);
                state = batch.state(r);
                if (state == null) {
                    launch.status("job " + id + ": state unknown (" + r.explain() + ")");
                    continue;
                }
                if (launch.isStopped()) {
                    return;
                }
                host.run(
                                "cat " + Scripts.quote(host.workDir() + "/logs") + "/" + Scripts.quote(launch.label())
                                        + "-*" + Scripts.EXITS + " 2>/dev/null",
                                Launch.COMMAND_TIMEOUT)
                        .out()
                        .lines()
                        .filter(exitsSeen::add)
                        .forEach(line -> launch.jvmEnded(host, jvm, line));
                if (launch.relaysOutput()) {
                    logRead = relayLog(log, logRead);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                launch.status("job " + id + ": state unknown (" + e.getMessage() + ")");
                continue;
            }
            launch.status("job " + id + " " + state.text());
            if (state.ended()) {
                launch.ended(() -> "batch job " + id + " ended (" + state.text() + ")" + launch.logTail(host));
                return;
            }
        }
    }

    /**
     * Relays the whole lines {@code log} gained past its first {@code read} bytes (a batch system writes a job's
     * output there, some as it comes, some only at its end); returns the bytes read now. The JVMs' ends in it are
     * left out: they are read from the exits files.
     */
    private long relayLog(final String log, final long read) {
        final String text = host.run(
                        "tail -c +" + (read + 1) + " " + Scripts.quote(log) + " 2>/dev/null", Launch.COMMAND_TIMEOUT)
                .out();
        final String whole = text.substring(0, text.lastIndexOf('\n') + 1);
        ScriptLines.of(whole)
                .filter(l -> !l.startsWith(Scripts.JVM_EXIT))
                .forEach(l -> launch.scriptLine(host, jvm, l));
        return read + whole.getBytes(StandardCharsets.UTF_8).length;
    }
}
