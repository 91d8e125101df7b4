package org.troupe.apps.jem3d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The exact cavity modes the run starts from and is measured against. */
class CavityModeTest {
    @Test
    void parsesModesAndChoosesAPolarisation() {
        assertEquals(new CavityMode(1, 1, 1, 1, 0, -1), CavityMode.parse("111"));
        assertEquals(new CavityMode(1, 0, 1, 0, 1, 0), CavityMode.parse("1,0,1"));
        assertEquals(new CavityMode(2, 1, 1, 1, 0, -2), CavityMode.parse("211"));
        assertEquals(new CavityMode(1, 1, 2, 1, 1, -1), CavityMode.parse("112:1,1,-1"));
        assertEquals(new CavityMode(12, 1, 1, 1, 0, -12), CavityMode.parse("12,1,1"));
    }

    @Test
    void refusesModesThatAreNotModes() {
        for (String bad : new String[] {"100", "000", "11", "1,1", "abc", "111:1,1,1", "111:1,0", "-1,1,1"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CavityMode.parse(bad), bad);
            assertTrue(e.getMessage().contains("mode"), e.getMessage());
        }
    }

    /** dE/dt = curl H and dH/dt = -curl E, and the walls' tangential E is zero, by central differences. */
    @Test
    void theModeSolvesMaxwellsEquationsInTheCavity() {
        for (CavityMode mode : new CavityMode[] {
            CavityMode.parse("111"), CavityMode.parse("121"), CavityMode.parse("1,0,2"), CavityMode.parse("231:1,1,-5")
        }) {
            double[] x = {0.31, 0.47, 0.73};
            double t = 0.37;
            double d = 1e-5;
            double[] dEdt = diff(mode, true, x, t, d, -1);
            double[] dHdt = diff(mode, false, x, t, d, -1);
            double[] curlH = curl(mode, false, x, t, d);
            double[] curlE = curl(mode, true, x, t, d);
            for (int c = 0; c < 3; c++) {
                assertEquals(curlH[c], dEdt[c], 1e-6, mode + " dE/dt");
                assertEquals(-curlE[c], dHdt[c], 1e-6, mode + " dH/dt");
            }
            double[] onWall = field(mode, true, new double[] {0, 0.4, 0.6}, t);
            assertEquals(0, onWall[1], 1e-15, "tangential E on x = 0");
            assertEquals(0, onWall[2], 1e-15, "tangential E on x = 0");
        }
    }

    private static double[] field(final CavityMode mode, final boolean electric, final double[] x, final double t) {
        return electric ? mode.e(x, t) : mode.h(x, t);
    }

    /** The tabulated averages are the 4-point rule's on the tetrahedra's own vertices. */
    @Test
    void tabulatedAveragesAreTheQuadratureRule() {
        CavityMode mode = CavityMode.parse("231:1,1,-5");
        Mesh mesh = new Mesh(7, 5, 6);
        Block block = Block.divide(mesh, new int[] {2, 1, 2}).get(3);
        ExactAverages table = new ExactAverages(mode, mesh, block);
        double[] h = mesh.spacing();
        double t = 0.3;
        double a = 0.5854101966249685;
        double b = 0.1381966011250105;
        double[] out = new double[3];
        for (int p = 0; p < Kuhn.TYPES; p++) {
            int[] cell = {1, 2, 0};
            double[][] v = new double[4][3];
            for (int q = 0; q < 4; q++) {
                for (int c = 0; c < 3; c++) {
                    v[q][c] = (block.lo()[c] + cell[c] + Kuhn.vertex(p, q)[c]) * h[c];
                }
            }
            for (boolean electric : new boolean[] {true, false}) {
                double[] expected = new double[3];
                for (int q = 0; q < 4; q++) {
                    double[] x = new double[3];
                    for (int c = 0; c < 3; c++) {
                        x[c] = a * v[q][c] + b * (v[(q + 1) % 4][c] + v[(q + 2) % 4][c] + v[(q + 3) % 4][c]);
                    }
                    double[] f = field(mode, electric, x, t);
                    for (int c = 0; c < 3; c++) {
                        expected[c] += f[c] / 4;
                    }
                }
                table.average(
                        cell[0],
                        cell[1],
                        cell[2],
                        p,
                        electric ? mode.amplitudeE(t) : mode.amplitudeH(t),
                        electric,
                        out);
                for (int c = 0; c < 3; c++) {
                    assertEquals(expected[c], out[c], 1e-14, "type " + p + (electric ? " E" : " H"));
                }
            }
        }
    }

    /** d/dt (axis -1) or d/dx_axis of the field, all three components. */
    private static double[] diff(
            final CavityMode mode,
            final boolean electric,
            final double[] x,
            final double t,
            final double d,
            final int axis) {
        double[] xp = x.clone();
        double[] xm = x.clone();
        double tp = t;
        double tm = t;
        if (axis < 0) {
            tp += d;
            tm -= d;
        } else {
            xp[axis] += d;
            xm[axis] -= d;
        }
        double[] fp = field(mode, electric, xp, tp);
        double[] fm = field(mode, electric, xm, tm);
        return new double[] {(fp[0] - fm[0]) / (2 * d), (fp[1] - fm[1]) / (2 * d), (fp[2] - fm[2]) / (2 * d)};
    }

    private static double[] curl(
            final CavityMode mode, final boolean electric, final double[] x, final double t, final double d) {
        double[] dx = diff(mode, electric, x, t, d, 0);
        double[] dy = diff(mode, electric, x, t, d, 1);
        double[] dz = diff(mode, electric, x, t, d, 2);
        return new double[] {dy[2] - dz[1], dz[0] - dx[2], dx[1] - dy[0]};
    }
}
