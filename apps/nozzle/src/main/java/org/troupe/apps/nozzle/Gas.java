package org.troupe.apps.nozzle;

/**
 * A perfect gas with gamma = 1.4, in units where the stagnation state at the inflow is density 1, temperature 1 and
 * speed of sound 1 (so the gas constant is 1 / gamma and the stagnation pressure 1 / gamma): the isentropic and
 * normal-shock relations the exact solutions are built from.
 */
final class Gas {
    static final double GAMMA = 1.4;
    static final double STAGNATION_DENSITY = 1.0;
    static final double STAGNATION_PRESSURE = 1.0 / GAMMA;

    private Gas() {}

    /** A / A* of isentropic flow at Mach {@code m}. */
    static double areaRatio(final double m) {
        final double g = GAMMA;
        return Math.pow(2 / (g + 1) * (1 + (g - 1) / 2 * m * m), (g + 1) / (2 * (g - 1))) / m;
    }

    /** The Mach number where A / A* is {@code ratio} (at least 1), on the subsonic or the supersonic branch. */
    static double machForAreaRatio(final double ratio, final boolean supersonic) {
        if (ratio <= 1) {
            return 1;
        }
        double lo = supersonic ? 1 : 1e-9;
        double hi = supersonic ? 50 : 1;
        for (int i = 0; i < 200; i++) { // the ratio falls below 1 and rises above it monotonically on each branch
            final double mid = 0.5 * (lo + hi);
            final boolean above = areaRatio(mid) > ratio;
            if (above == supersonic) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return 0.5 * (lo + hi);
    }

    /** p / p0 of isentropic flow at Mach {@code m}. */
    static double pressureRatio(final double m) {
        return Math.pow(1 + (GAMMA - 1) / 2 * m * m, -GAMMA / (GAMMA - 1));
    }

    /** rho / rho0 of isentropic flow at Mach {@code m}. */
    static double densityRatio(final double m) {
        return Math.pow(1 + (GAMMA - 1) / 2 * m * m, -1 / (GAMMA - 1));
    }

    /** The Mach number behind a normal shock met at Mach {@code m1}. */
    static double machBehindShock(final double m1) {
        final double g = GAMMA;
        return Math.sqrt((1 + (g - 1) / 2 * m1 * m1) / (g * m1 * m1 - (g - 1) / 2));
    }

    /** The ratio of stagnation pressures across a normal shock met at Mach {@code m1} (behind / ahead). */
    static double stagnationPressureRatio(final double m1) {
        final double g = GAMMA;
        final double a = Math.pow((g + 1) / 2 * m1 * m1 / (1 + (g - 1) / 2 * m1 * m1), g / (g - 1));
        final double b = Math.pow(2 * g / (g + 1) * m1 * m1 - (g - 1) / (g + 1), -1 / (g - 1));
        return a * b;
    }
}
