package org.troupe.apps.nozzle;

import java.util.Locale;

/**
 * The exact steady quasi-one-dimensional flow through a nozzle: isentropic from the inflow's stagnation state, sonic
 * at the throat, then either supersonic to the exit, or through a normal shock at {@link #shock()} and subsonic
 * to an exit at the back pressure (the area-Mach relation on each side, the normal-shock relations across).
 */
final class ExactQ1d {
    /** The state at a point: Mach number, and pressure, density and velocity in the units of {@link Gas}. */
    record State(double mach, double pressure, double density, double velocity) {}

    private final NozzleShape shape;
    private final double throat;
    private final double throatArea;
    /** Where the shock stands, or NaN for a supersonic exit. */
    private final double shock;

    private ExactQ1d(final NozzleShape shape, final double throat, final double shock) {
        this.shape = shape;
        this.throat = throat;
        this.throatArea = shape.area(throat);
        this.shock = shock;
    }

    /** Supersonic from the throat to the exit. */
    static ExactQ1d isentropic(final NozzleShape shape) {
        return new ExactQ1d(shape, shape.throat(), Double.NaN);
    }

    /** With a shock where the back pressure {@code backPressure} puts it; see {@link #backPressureRange}. */
    static ExactQ1d withBackPressure(final NozzleShape shape, final double backPressure) {
        final ExactQ1d probe = isentropic(shape);
        final double[] range = probe.backPressureRange();
        if (!(backPressure > range[0] && backPressure < range[1])) {
            final double p0 = Gas.STAGNATION_PRESSURE;
            throw new IllegalArgumentException(String.format(
                    Locale.ROOT,
                    "a back pressure of %.5f puts no"
                            + " normal shock in this nozzle: with a shock in its diverging part it lies between %.5f (shock at"
                            + " the exit) and %.5f (shock at the throat), in units of the inflow's stagnation pressure",
                    backPressure / p0,
                    range[0] / p0,
                    range[1] / p0));
        }
        double lo = probe.throat;
        double hi = shape.end();
        for (int i = 0; i < 200; i++) { // the exit pressure falls as the shock moves downstream
            final double mid = 0.5 * (lo + hi);
            if (probe.exitPressureWithShockAt(mid) > backPressure) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return new ExactQ1d(shape, probe.throat, 0.5 * (lo + hi));
    }

    /** The back pressure that puts the shock at {@code x} (in the diverging part). */
    static double backPressureForShockAt(final NozzleShape shape, final double x) {
        return isentropic(shape).exitPressureWithShockAt(x);
    }

    /** The back pressures that put a shock in the diverging part: {shock at the exit, shock at the throat}. */
    double[] backPressureRange() {
        return new double[] {exitPressureWithShockAt(shape.end()), exitPressureWithShockAt(throat)};
    }

    double throat() {
        return throat;
    }

    double shock() {
        return shock;
    }

    State at(final double x) {
        final double ratio = shape.area(x) / throatArea;
        if (Double.isNaN(shock) || x < shock) {
            return state(Gas.machForAreaRatio(ratio, x > throat), 1);
        }
        final double loss = Gas.stagnationPressureRatio(Gas.machForAreaRatio(shape.area(shock) / throatArea, true));
        return state(Gas.machForAreaRatio(ratio * loss, false), loss); // A2* = A* / loss
    }

    private double exitPressureWithShockAt(final double x) {
        final double loss = Gas.stagnationPressureRatio(Gas.machForAreaRatio(shape.area(x) / throatArea, true));
        final double exitMach = Gas.machForAreaRatio(shape.area(shape.end()) / throatArea * loss, false);
        return Gas.STAGNATION_PRESSURE * loss * Gas.pressureRatio(exitMach);
    }

    /** At Mach {@code m}, with the stagnation pressure and density {@code loss} times the inflow's. */
    private static State state(final double m, final double loss) {
        final double temperature = 1 / (1 + (Gas.GAMMA - 1) / 2 * m * m);
        return new State(
                m,
                Gas.STAGNATION_PRESSURE * loss * Gas.pressureRatio(m),
                Gas.STAGNATION_DENSITY * loss * Gas.densityRatio(m),
                m * Math.sqrt(temperature));
    }
}
