package org.troupe.apps.jem3d;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;

/**
 * What a run measured. {@code seconds} is the time-stepping loop alone (the slowest subdomain's), without deployment
 * and set-up, and {@code waitFraction} the share of it the subdomains spent waiting for their neighbours' values; {@code heapBytesPerTet} is the heap the solver's data takes after set-up, summed over the nodes, per
 * tetrahedron. {@code energies} is the total energy after each step, {@code errors} rows of {step, E error, H error}
 * where they were measured, and {@code fields} the final fields when asked for ({@link Jem3dRun#keepFields()}), {@code sliceE} |E| per cell on the mid-plane
 * in z as [y][x] when asked for ({@link Jem3dRun#keepSlice()}), else null. {@code events} are the losses and
 * restarts the run went through, and {@code checkpointOverhead} the share of the time loop the subdomains spent
 * taking checkpoints. {@code firstStep} is the step it resumed after (0 for a run from the start).
 */
public record Jem3dReport(
        Mesh mesh,
        long tetrahedra,
        int[] division,
        int nodes,
        int steps,
        int stepsPlanned,
        int firstStep,
        double dt,
        double seconds,
        double waitFraction,
        double energyDrift,
        double errorE,
        double errorH,
        double heapBytesPerTet,
        double[] energies,
        double[][] errors,
        List<BlockFields> fields,
        double[][] sliceE,
        List<RunEvent> events,
        double checkpointOverhead) {

    public double time() {
        return steps * dt;
    }

    /** The steps this run made (not those before the checkpoint it resumed from) per second of its time loop. */
    public double tetStepsPerSecond() {
        return tetrahedra * (double) (steps - firstStep) / seconds;
    }

    /** Whether the run was stopped before its planned end. */
    public boolean stoppedEarly() {
        return steps < stepsPlanned;
    }

    /** The report as the JSON object {@code --json} writes, with exactly the documented keys. */
    public String toJson() {
        return "{\"mesh\":[" + mesh.m1() + "," + mesh.m2() + "," + mesh.m3() + "],"
                + "\"tetrahedra\":" + tetrahedra + ","
                + "\"division\":[" + division[0] + "," + division[1] + "," + division[2] + "],"
                + "\"nodes\":" + nodes + ","
                + "\"steps\":" + steps + ","
                + "\"dt\":" + number(dt) + ","
                + "\"time\":" + number(time()) + ","
                + "\"seconds\":" + number(seconds) + ","
                + "\"tet_steps_per_s\":" + number(tetStepsPerSecond()) + ","
                + "\"energy_rel_drift\":" + number(energyDrift) + ","
                + "\"error_E\":" + number(errorE) + ","
                + "\"error_H\":" + number(errorH) + ","
                + "\"heap_bytes_per_tet\":" + number(heapBytesPerTet) + ","
                + "\"checkpoint_overhead\":" + number(checkpointOverhead) + ","
                + "\"events\":["
                + String.join(",", events.stream().map(RunEvent::toJson).toList()) + "]}";
    }

    private static String number(final double x) {
        if (!Double.isFinite(x)) {
            return "null";
        }
        return new BigDecimal(x).round(new MathContext(10)).stripTrailingZeros().toString();
    }

    /** The report for people, one quantity per line. */
    public String toText() {
        StringBuilder b = new StringBuilder();
        line(b, "mesh", mesh + " points, " + mesh.cellCount() + " cells");
        line(b, "tetrahedra", String.format(Locale.ROOT, "%,d", tetrahedra));
        line(b, "division", Division.format(division) + " subdomains on " + nodes + (nodes == 1 ? " node" : " nodes"));
        line(
                b,
                "steps",
                steps
                        + (stoppedEarly() ? " (stopped early; " + stepsPlanned + " planned)" : "")
                        + String.format(Locale.ROOT, ", dt %.4e, t = %.6f", dt, time()));
        line(
                b,
                "seconds",
                String.format(
                        Locale.ROOT,
                        "%.3f (time loop%s; %.0f%% of it waiting for neighbours)",
                        seconds,
                        firstStep > 0 ? " from step " + firstStep + ", where it resumed" : "",
                        100 * waitFraction));
        line(b, "rate", String.format(Locale.ROOT, "%.3e tetrahedron-steps/s", tetStepsPerSecond()));
        line(b, "energy drift", String.format(Locale.ROOT, "%.2e (relative)", energyDrift));
        line(b, "error E", String.format(Locale.ROOT, "%.4e", errorE));
        line(b, "error H", String.format(Locale.ROOT, "%.4e", errorH));
        line(b, "heap", String.format(Locale.ROOT, "%.1f bytes per tetrahedron", heapBytesPerTet));
        line(b, "checkpoints", String.format(Locale.ROOT, "%.1f%% of the time loop", 100 * checkpointOverhead));
        for (RunEvent e : events) {
            line(b, "event", e.toString());
        }
        return b.toString();
    }

    private static void line(final StringBuilder b, final String key, final String value) {
        b.append(String.format(Locale.ROOT, "  %-13s %s%n", key, value));
    }
}
