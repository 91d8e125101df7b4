package org.troupe.apps.jem3d;

import java.io.Serializable;
import java.util.Locale;

/**
 * A resonant mode of the perfectly conducting unit cube (eps = mu = 1): wave numbers k = pi (kx, ky, kz) and a
 * polarisation A with A.k = 0,
 * <pre>
 * E = (Ax cx sy sz, Ay sx cy sz, Az sx sy cz) cos(wt),  H = -(1/w) curl(E at t=0) sin(wt),  w = |k|,
 * </pre>
 * where cx = cos(kx pi x), sx = sin(kx pi x) and so on. Mode 111 with A = (1, 0, -1) is the default: the lowest
 * mode with every index non-zero, so the field varies along every axis.
 */
public record CavityMode(int kx, int ky, int kz, double ax, double ay, double az) implements Serializable {
    public CavityMode {
        if (kx < 0 || ky < 0 || kz < 0) {
            throw new IllegalArgumentException("mode indices must be 0 or more, got " + label(kx, ky, kz));
        }
        double largest = 0;
        for (double a : new double[] {ax, ay, az}) {
            if (!Double.isFinite(a) || Math.abs(a) > 1e6) {
                throw new IllegalArgumentException("the polarisation (" + ax + ", " + ay + ", " + az + ") of mode "
                        + label(kx, ky, kz) + " must be finite numbers of at most 1e6 in size");
            }
            largest = Math.max(largest, Math.abs(a));
        }
        if (largest < 1e-6) {
            throw new IllegalArgumentException("the polarisation (" + ax + ", " + ay + ", " + az + ") of mode "
                    + label(kx, ky, kz) + " is too small: its largest component must be at least 1e-6");
        }
        if (kx > 1000 || ky > 1000 || kz > 1000) {
            throw new IllegalArgumentException(
                    "mode " + label(kx, ky, kz) + ": indices above 1000 need more " + "cells than any mesh here has");
        }
        double k2 = (double) kx * kx + (double) ky * ky + (double) kz * kz;
        if (Math.abs(ax * kx + ay * ky + az * kz) > 1e-12 * Math.sqrt(k2) * Math.sqrt(ax * ax + ay * ay + az * az)) {
            throw new IllegalArgumentException("the polarisation (" + ax + ", " + ay + ", " + az + ") of mode "
                    + label(kx, ky, kz) + " is not orthogonal to its wave vector; choose A with A.k = 0");
        }
        boolean nonZero =
                ax != 0 && ky != 0 && kz != 0 || ay != 0 && kx != 0 && kz != 0 || az != 0 && kx != 0 && ky != 0;
        if (!nonZero) {
            throw new IllegalArgumentException(
                    "mode " + label(kx, ky, kz) + " with polarisation (" + ax + ", " + ay + ", " + az
                            + ") is zero everywhere in the cube; a cavity mode needs at least two non-zero indices");
        }
    }

    /** Mode (1,1,1) with A = (1, 0, -1), used when no mode is given. */
    public static CavityMode defaultMode() {
        return parse("111");
    }

    /**
     * Parses "111" (three digits), "1,2,0", or either followed by ":Ax,Ay,Az". Without a polarisation, one is chosen
     * that is orthogonal to k and not zero in the cube: A = (kz, 0, -kx) when every index is non-zero, else the unit
     * vector of the zero index's axis.
     */
    public static CavityMode parse(final String text) {
        String[] parts = text.trim().split(":", 2);
        int[] k = parseIndices(parts[0].trim(), text);
        double[] a;
        if (parts.length == 2) {
            String[] c = parts[1].split(",", -1);
            if (c.length != 3) {
                throw new IllegalArgumentException(
                        "mode '" + text + "': the polarisation after ':' must be three " + "numbers, like 111:1,0,-1");
            }
            a = new double[3];
            for (int i = 0; i < 3; i++) {
                try {
                    a[i] = Double.parseDouble(c[i].trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("mode '" + text + "': '" + c[i].trim() + "' is not a number");
                }
            }
        } else {
            a = defaultPolarisation(k);
        }
        return new CavityMode(k[0], k[1], k[2], a[0], a[1], a[2]);
    }

    private static int[] parseIndices(final String s, final String text) {
        String usage = "mode '" + text + "' is not a mode: write three digits like 111, or kx,ky,kz like 1,2,0";
        int[] k = new int[3];
        if (s.matches("\\d{3}")) {
            for (int i = 0; i < 3; i++) {
                k[i] = s.charAt(i) - '0';
            }
            return k;
        }
        String[] c = s.split(",", -1);
        if (c.length != 3) {
            throw new IllegalArgumentException(usage);
        }
        for (int i = 0; i < 3; i++) {
            try {
                k[i] = Integer.parseInt(c[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(usage);
            }
        }
        return k;
    }

    private static double[] defaultPolarisation(final int[] k) {
        int zeros = 0;
        int zeroAxis = -1;
        for (int i = 0; i < 3; i++) {
            if (k[i] == 0) {
                zeros++;
                zeroAxis = i;
            }
        }
        if (zeros == 0) {
            return new double[] {k[2], 0, -k[0]};
        }
        if (zeros > 1) {
            throw new IllegalArgumentException("mode " + label(k[0], k[1], k[2]) + " is zero everywhere in the cube; "
                    + "a cavity mode needs at least two non-zero indices");
        }
        double[] a = new double[3];
        a[zeroAxis] = 1;
        return a;
    }

    public double omega() {
        return Math.PI * Math.sqrt((double) kx * kx + (double) ky * ky + (double) kz * kz);
    }

    /** The mode's name as given on the command line: "111", or "1,2,10" when an index has two digits. */
    public String label() {
        return label(kx, ky, kz);
    }

    private static String label(final int kx, final int ky, final int kz) {
        return kx < 10 && ky < 10 && kz < 10 && kx >= 0 && ky >= 0 && kz >= 0
                ? "" + kx + ky + kz
                : kx + "," + ky + "," + kz;
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "%s (A = %s, %s, %s; omega = %.6f)",
                label(),
                compact(ax),
                compact(ay),
                compact(az),
                omega());
    }

    private static String compact(final double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? String.valueOf((long) x) : String.valueOf(x);
    }

    /** The factors of E's three patterns (cx sy sz, sx cy sz, sx sy cz) at time t. */
    double[] amplitudeE(final double t) {
        double c = Math.cos(omega() * t);
        return new double[] {c * ax, c * ay, c * az};
    }

    /** The factors of H's three patterns (sx cy cz, cx sy cz, cx cy sz) at time t: -(1/w) curl E(0) sin(wt). */
    double[] amplitudeH(final double t) {
        double w = omega();
        double f = -Math.sin(w * t) / w * Math.PI;
        return new double[] {f * (az * ky - ay * kz), f * (ax * kz - az * kx), f * (ay * kx - ax * ky)};
    }

    /** E at point x and time t, into out[0..2]. */
    double[] e(final double[] x, final double t) {
        double[] p = patterns(x, true);
        double[] a = amplitudeE(t);
        return new double[] {a[0] * p[0], a[1] * p[1], a[2] * p[2]};
    }

    /** H at point x and time t. */
    double[] h(final double[] x, final double t) {
        double[] p = patterns(x, false);
        double[] a = amplitudeH(t);
        return new double[] {a[0] * p[0], a[1] * p[1], a[2] * p[2]};
    }

    private double[] patterns(final double[] x, final boolean electric) {
        double px = Math.PI * kx * x[0];
        double py = Math.PI * ky * x[1];
        double pz = Math.PI * kz * x[2];
        double sx = Math.sin(px);
        double cx = Math.cos(px);
        double sy = Math.sin(py);
        double cy = Math.cos(py);
        double sz = Math.sin(pz);
        double cz = Math.cos(pz);
        return electric
                ? new double[] {cx * sy * sz, sx * cy * sz, sx * sy * cz}
                : new double[] {sx * cy * cz, cx * sy * cz, cx * cy * sz};
    }
}
