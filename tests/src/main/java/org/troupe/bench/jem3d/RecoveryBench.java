package org.troupe.bench.jem3d;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.troupe.apps.jem3d.Jem3dOptions;
import org.troupe.apps.jem3d.Jem3dReport;
import org.troupe.apps.jem3d.Jem3dRun;
import org.troupe.apps.jem3d.RunEvent;
import org.troupe.apps.jem3d.RunStatus;
import org.troupe.bench.BenchFailure;
import org.troupe.core.CoreConfig;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.VirtualNode;

/**
 * Case {@code recovery}: what checkpoints cost and what a lost node costs, on the default run ({@code bin/jem3d}'s:
 * m = 41, one period, 2 node JVMs of {@code descriptors/local.xml}).
 *
 * <p>After a warm-up of each configuration, the time loop is timed without checkpoints and with them every
 * {@link Jem3dOptions#DEFAULT_CHECKPOINT_EVERY} steps, pair by pair (each first in turn): the overhead is the ratio of
 * their medians. Then, apart, without and with them every {@value #DENSE} steps: what one checkpoint costs, which the
 * default run's one checkpoint cannot show beside the machine's noise (runs of one configuration vary by 5-10%), and
 * the overhead the default interval has at that cost. Then, in runs of the same deployment, one node JVM is killed (SIGKILL) once the
 * run is past half way with a checkpoint complete; the run takes a replacement JVM from the deployment and restarts
 * from that checkpoint. Its recovery is the time from the kill to the first progress report past the checkpoint
 * (the run reports every 100 ms), and its extra time its whole duration less the median of the uninterrupted runs'.
 */
final class RecoveryBench {
    private static final int WARM_UPS = 4;
    /** Steps between the checkpoints of the runs that measure what one costs. */
    private static final int DENSE = 10;

    private final Path descriptor;
    private final int runs;

    RecoveryBench(final Path descriptor, final boolean quick) {
        this.descriptor = descriptor;
        this.runs = quick ? 5 : 9;
    }

    RecoveryFigure measure() throws BenchFailure {
        TroupeRuntime runtime = TroupeRuntime.start(CoreConfig.fromSettings());
        try (Deployment d = Deployment.load(descriptor, Map.of("jvms", "2", "vn", Jem3dRun.VIRTUAL_NODE))
                .start()) {
            VirtualNode vn = d.virtualNode(Jem3dRun.VIRTUAL_NODE);
            Jem3dOptions plain = Jem3dOptions.defaults(descriptor).withCheckpoints(0, null);
            Jem3dOptions checkpoints = Jem3dOptions.defaults(descriptor);
            List<Long> ours = new ArrayList<>(List.of(ProcessHandle.current().pid()));
            vn.waitForNodes(2, Duration.ofMinutes(2)).forEach(n -> ours.add(TroupeRuntime.pidOf(n.runtimeId())));
            CpuElsewhere overall = CpuElsewhere.start(ours); // while the time loop is timed
            // the time loop gets faster over the first runs of the JVMs (the JIT): a warm-up of several runs
            Jem3dOptions dense = plain.withCheckpoints(DENSE, null);
            for (int w = 0; w < WARM_UPS; w++) {
                for (Jem3dOptions c : List.of(plain, checkpoints, dense)) {
                    run(d, c, "warm-up");
                }
            }
            // the default interval against none, pair by pair; then, apart (their garbage must not weigh on the
            // first pairs), the dense runs against none
            double[][] pairs = pairs(d, plain, checkpoints, "default interval");
            double[][] densePairs = pairs(d, plain, dense, "every " + DENSE);
            int steps = plain.stepsFor(plain.mesh());
            double loopPlain = Jem3dSuite.median(pairs[0]);
            // a checkpoint's cost from the dense runs, where their many checkpoints stand out of the noise
            double perCheckpoint =
                    (Jem3dSuite.median(densePairs[1]) - Jem3dSuite.median(densePairs[0])) / ((steps - 1) / DENSE);
            double[] wall = pairs[2];
            double elsewhere = overall.cores();
            double[] recovery = new double[runs];
            double[] extra = new double[runs];
            double[] redone = new double[runs];
            double uninterrupted = Jem3dSuite.median(wall);
            for (int r = 0; r < runs; r++) {
                Killer killer = new Killer(vn, checkpoints.stepsFor(checkpoints.mesh()) / 2);
                long begin = System.nanoTime();
                Jem3dReport report = new Jem3dRun(checkpoints, killer).run(d);
                extra[r] = (System.nanoTime() - begin) / 1e9 - uninterrupted;
                RunEvent restart = report.events().stream()
                        .filter(e -> e.kind() == RunEvent.Kind.RESTARTED)
                        .findFirst()
                        .orElseThrow(() -> new BenchFailure("the run lost no node: " + report.events()));
                if (killer.steppingAgain == 0 || report.steps() != report.stepsPlanned()) {
                    throw new BenchFailure("the run did not step again after the kill: " + report.events());
                }
                recovery[r] = (killer.steppingAgain - killer.killedAt) / 1e9;
                redone[r] = restart.stepsRedone();
                System.err.printf(
                        Locale.ROOT,
                        "jem3d: recovery %d/%d: stepping again %.2f s after the kill, %.2f s longer in all; %s%n",
                        r + 1,
                        runs,
                        recovery[r],
                        extra[r],
                        restart);
            }
            return new RecoveryFigure(
                    checkpoints.mesh().m1(),
                    checkpoints.stepsFor(checkpoints.mesh()),
                    checkpoints.checkpointEvery(),
                    runs,
                    loopPlain,
                    Jem3dSuite.median(pairs[1]),
                    Jem3dSuite.median(pairs[1]) / loopPlain - 1,
                    1000 * perCheckpoint,
                    perCheckpoint * ((steps - 1) / checkpoints.checkpointEvery()) / loopPlain,
                    Jem3dSuite.median(recovery),
                    Arrays.stream(recovery).max().orElseThrow(),
                    Jem3dSuite.median(extra),
                    Arrays.stream(extra).max().orElseThrow(),
                    Jem3dSuite.median(redone),
                    elsewhere);
        } catch (BenchFailure e) {
            throw e;
        } catch (RuntimeException e) {
            throw new BenchFailure(Jem3dSuite.RECOVERY + ": " + e, e);
        } finally {
            runtime.shutdown();
        }
    }

    /**
     * {@code runs} runs of {@code without} and of {@code with}, in turn first: their time loops, and the whole
     * durations of the runs with.
     */
    private double[][] pairs(final Deployment d, final Jem3dOptions without, final Jem3dOptions with, final String what)
            throws BenchFailure {
        double[][] out = new double[3][runs];
        for (int r = 0; r < runs; r++) {
            for (int k = 0; k < 2; k++) {
                boolean plainRun = (r + k) % 2 == 0; // each first in turn, so that drift favours neither
                long begin = System.nanoTime();
                Jem3dReport report = run(d, plainRun ? without : with, what + ", run " + (r + 1) + "/" + runs);
                out[plainRun ? 0 : 1][r] = report.seconds();
                if (!plainRun) {
                    out[2][r] = (System.nanoTime() - begin) / 1e9;
                }
            }
        }
        return out;
    }

    private static Jem3dReport run(final Deployment d, final Jem3dOptions options, final String what)
            throws BenchFailure {
        Jem3dReport report = new Jem3dRun(options, new Jem3dRun.Listener() {}).run(d);
        if (report.steps() != report.stepsPlanned() || !report.events().isEmpty()) {
            throw new BenchFailure(what + ": the run made " + report.steps() + " of " + report.stepsPlanned()
                    + " steps, events " + report.events());
        }
        System.err.printf(
                Locale.ROOT,
                "jem3d: recovery case, %s: time loop %.3f s, checkpoints %.1f%% of it%n",
                what,
                report.seconds(),
                100 * report.checkpointOverhead());
        return report;
    }

    /**
     * Kills the second node's JVM once the run is past {@code at} steps with a checkpoint complete, and notes when it
     * steps again.
     */
    private static final class Killer implements Jem3dRun.Listener {
        private final VirtualNode vn;
        private final int at;
        long killedAt;
        long steppingAgain;
        private int restartedFrom = -1;

        Killer(final VirtualNode vn, final int at) {
            this.vn = vn;
            this.at = at;
        }

        @Override
        public void info(final String line) {
            Matcher m = RESTARTED.matcher(line);
            if (m.find()) {
                restartedFrom = Integer.parseInt(m.group(1));
            }
        }

        @Override
        public void progress(final RunStatus status) {
            if (killedAt == 0 && status.stepsDone() >= at && status.checkpointStep() > 0) {
                Node victim = vn.nodes().get(1);
                killedAt = System.nanoTime();
                ProcessHandle.of(TroupeRuntime.pidOf(victim.runtimeId())).ifPresent(ProcessHandle::destroyForcibly);
            } else if (restartedFrom >= 0 && steppingAgain == 0 && status.stepsDone() > restartedFrom) {
                steppingAgain = System.nanoTime();
            }
        }

        private static final Pattern RESTARTED = Pattern.compile("^step (\\d+): restarted");
    }
}
