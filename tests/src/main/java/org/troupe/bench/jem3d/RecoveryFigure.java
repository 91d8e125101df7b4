package org.troupe.bench.jem3d;

import java.util.Locale;
import org.troupe.bench.Figure;

/**
 * {@code {"suite":"jem3d","case":"recovery","mesh","steps","checkpoint_every","runs","loop_s_plain",
 * "loop_s_checkpoints","checkpoint_overhead","checkpoint_ms","checkpoint_overhead_model","recovery_s",
 * "recovery_s_worst","extra_s","extra_s_worst","steps_redone","other_cpu_cores_max"}}: the default run's time loop
 * without checkpoints and with them at the default interval (medians of {@code runs} runs), the overhead those
 * medians give, what one checkpoint costs (from runs with a checkpoint every 10 steps) and the overhead the default
 * interval has at that cost; then, over {@code runs} runs in which a node JVM is killed at mid-run, the median and
 * worst seconds from the kill to the run stepping again, the median and worst extra seconds the run took against
 * the uninterrupted runs' median (the redone steps included), and the median steps redone.
 */
record RecoveryFigure(
        int mesh,
        int steps,
        int checkpointEvery,
        int runs,
        double loopPlain,
        double loopCheckpoints,
        double overhead,
        double checkpointMillis,
        double overheadModel,
        double recovery,
        double recoveryWorst,
        double extra,
        double extraWorst,
        double stepsRedone,
        double otherCpuCoresMax)
        implements Figure {
    @Override
    public String toJson() {
        return "{\"suite\":\"jem3d\",\"case\":\"recovery\",\"mesh\":" + mesh
                + ",\"steps\":" + steps
                + ",\"checkpoint_every\":" + checkpointEvery
                + ",\"runs\":" + runs
                + ",\"loop_s_plain\":" + String.format(Locale.ROOT, "%.3f", loopPlain)
                + ",\"loop_s_checkpoints\":" + String.format(Locale.ROOT, "%.3f", loopCheckpoints)
                + ",\"checkpoint_overhead\":" + String.format(Locale.ROOT, "%.4f", overhead)
                + ",\"checkpoint_ms\":" + String.format(Locale.ROOT, "%.1f", checkpointMillis)
                + ",\"checkpoint_overhead_model\":" + String.format(Locale.ROOT, "%.4f", overheadModel)
                + ",\"recovery_s\":" + Figure.number(recovery, "time")
                + ",\"recovery_s_worst\":" + Figure.number(recoveryWorst, "time")
                + ",\"extra_s\":" + String.format(Locale.ROOT, "%.2f", extra)
                + ",\"extra_s_worst\":" + String.format(Locale.ROOT, "%.2f", extraWorst)
                + ",\"steps_redone\":" + String.format(Locale.ROOT, "%.0f", stepsRedone)
                + (Double.isNaN(otherCpuCoresMax)
                        ? ""
                        : ",\"other_cpu_cores_max\":" + Figure.number(otherCpuCoresMax, "CPU use"))
                + "}";
    }
}
