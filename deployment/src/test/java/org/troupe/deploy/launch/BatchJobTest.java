package org.troupe.deploy.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.deploy.descriptor.ProcessSpec;

/** A batch job's lifecycle against a scripted Slurm: submitted, watched until it ends, cancelled on a stop. */
class BatchJobTest {
    private static final ProcessSpec.Jvm JVM = new ProcessSpec.Jvm("jvms", "", "", List.of(), Map.of(), 1, 1);
    private static final ProcessSpec.Slurm SLURM = new ProcessSpec.Slurm("job", 1, 1, "00:05:00", "", JVM);

    /** A front-end that answers Slurm's commands as it is told, and keeps every command it was given. */
    private static final class ScriptedSlurm implements Host {
        final List<String> commands = new CopyOnWriteArrayList<>();
        volatile Result submitted = new Result(0, "42\n", "");
        /** What squeue says of the job until it is cancelled; then it is no longer listed. */
        volatile String state = "RUNNING";

        private volatile boolean cancelled;

        @Override
        public String describe() {
            return "front-end";
        }

        @Override
        public String workDir() {
            return "/work/d1";
        }

        @Override
        public void write(final String path, final byte[] content, final int mode) {}

        @Override
        public Result run(final String script, final Duration timeout) {
            commands.add(script);
            if (script.startsWith("sbatch ")) {
                return submitted;
            }
            if (script.startsWith("scancel ")) {
                cancelled = true;
            }
            if (script.startsWith("squeue ")) {
                return new Result(0, cancelled ? "" : state + "\n", "");
            }
            return new Result(0, "", "");
        }

        @Override
        public Background start(final String script, final Consumer<String> lines) {
            throw new UnsupportedOperationException("a batch job runs its commands to their end");
        }

        @Override
        public void release(final boolean keepLogs) {}
    }

    /** What the launch reports: its end. */
    private static final class Ends implements Launch.Events {
        final CompletableFuture<String> ended = new CompletableFuture<>();

        @Override
        public void ended(final Launch launch, final String why) {
            ended.complete(why);
        }

        @Override
        public void jvmFailed(final Launch launch, final long pid, final int nodes, final String why) {}

        @Override
        public void output(final Launch launch, final String jvm, final boolean stderr, final String text) {}
    }

    private static Launch launch(final Path dir, final Launch.Events events) {
        return new Launch(
                new Launch.Context(
                        "dtest", "127.0.0.1:1", "s3cret", Map.of(), dir, "", "", List.of(), List.of(), false),
                SLURM,
                "jobs-1",
                "dtest.0.1.",
                events,
                "jobs",
                0);
    }

    @Test
    void aJobTheBatchSystemRefusesFailsItsLaunchAndIsCancelledByNameOnTheStop(@TempDir final Path dir) {
        final ScriptedSlurm slurm = new ScriptedSlurm();
        slurm.submitted = new Host.Result(1, "", "sbatch: error: invalid partition");
        final Launch launch = launch(dir, new Ends());
        final LaunchException e = assertThrows(
                LaunchException.class,
                () -> new BatchJob(launch, slurm, BatchSystem.SLURM, SLURM, JVM).submit("/work/d1/jvms.sh", "secret"));
        assertTrue(
                e.getMessage()
                        .contains("the batch system refused the job: sbatch gave exit code 1: sbatch: error:"
                                + " invalid partition"),
                e.getMessage());
        launch.stop(false);
        assertTrue(
                slurm.commands.contains("scancel --name='troupe-dtest-jobs-1' 2>/dev/null; true"),
                slurm.commands.toString());
    }

    @Test
    void aSubmittedJobIsWatchedUntilItEndsAndItsEndEndsTheLaunch(@TempDir final Path dir) throws Exception {
        final ScriptedSlurm slurm = new ScriptedSlurm();
        final Ends events = new Ends();
        final Launch launch = launch(dir, events);
        try {
            new BatchJob(launch, slurm, BatchSystem.SLURM, SLURM, JVM).submit("/work/d1/jvms.sh", "secret");
            assertTrue(
                    slurm.commands.getFirst().startsWith("sbatch --parsable --job-name='troupe-dtest-jobs-1'"),
                    slurm.commands.toString());
            slurm.state = "COMPLETED";
            final String why = events.ended.get(60, TimeUnit.SECONDS);
            assertTrue(why.startsWith("batch job 42 ended (completed)"), why);
            assertEquals("job 42 completed", launch.status());
        } finally {
            launch.stop(false);
        }
        assertTrue(slurm.commands.contains("scancel '42' 2>/dev/null; true"), slurm.commands.toString());
    }

    @Test
    void aStopEndsTheWatchAndCancelsTheJobByItsIdWithoutReportingAnEnd(@TempDir final Path dir) throws Exception {
        final ScriptedSlurm slurm = new ScriptedSlurm();
        final Ends events = new Ends();
        final Launch launch = launch(dir, events);
        new BatchJob(launch, slurm, BatchSystem.SLURM, SLURM, JVM).submit("/work/d1/jvms.sh", "secret");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!launch.status().equals("job 42 running") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals("job 42 running", launch.status());
        launch.stop(false);
        assertTrue(slurm.commands.contains("scancel '42' 2>/dev/null; true"), slurm.commands.toString());
        assertEquals("stopped", launch.status());
        assertTrue(!events.ended.isDone(), "a stop is no end to report: " + events.ended);
    }
}
