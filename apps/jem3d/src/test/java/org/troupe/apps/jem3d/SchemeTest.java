package org.troupe.apps.jem3d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The scheme on one block (the sequential run): energy, reference errors against the exact mode, convergence. */
class SchemeTest {
    private static final double PERIOD_111 = 2 / Math.sqrt(3);

    /** Runs mode 111 for one period at CFL 0.5 and returns {E error, H error, max relative energy drift}. */
    static double[] run(final int m) {
        Mesh mesh = new Mesh(m, m, m);
        return run(mesh, CavityMode.defaultMode(), 0.5, (int) Math.ceil(PERIOD_111 / mesh.timeStep(0.5)));
    }

    static double[] run(final Mesh mesh, final CavityMode mode, final double cfl, final int steps) {
        double dt = mesh.timeStep(cfl);
        Block block = Block.divide(mesh, new int[] {1, 1, 1}).getFirst();
        BlockSolver solver = new BlockSolver(mesh, block, dt);
        solver.initialise(mode);
        double first = 0;
        double drift = 0;
        for (int n = 0; n < steps; n++) {
            double energy = solver.step();
            if (n == 0) {
                first = energy;
            }
            drift = Math.max(drift, Math.abs(energy - first) / first);
        }
        double[] squares = solver.errorSquares(mode, steps);
        return new double[] {Math.sqrt(squares[0]), Math.sqrt(squares[1]), drift};
    }

    @Test
    void referenceErrorsAndConvergence() {
        double[] coarse = run(11);
        double[] fine = run(21);
        assertEquals(7.7e-2, coarse[0], 7.7e-3, "E error at m=11");
        assertEquals(2.9e-2, fine[0], 2.9e-3, "E error at m=21");
        double ratio = coarse[0] / fine[0];
        assertTrue(ratio > 2 && ratio < 3, "E error ratio per halving of h: " + ratio);
        assertTrue(coarse[2] < 1e-10 && fine[2] < 1e-10, "energy drift " + coarse[2] + ", " + fine[2]);
        assertTrue(fine[1] < coarse[1] / 2, "H error falls too: " + coarse[1] + " -> " + fine[1]);
    }

    @Test
    void energyIsConservedOnStretchedMeshesAtTheStabilityLimit() {
        double[] stretched = run(new Mesh(9, 13, 6), CavityMode.parse("1,2,1"), 1.0, 400);
        assertTrue(stretched[2] < 1e-10, "drift " + stretched[2]);
        double[] other = run(new Mesh(7, 7, 7), CavityMode.parse("231:1,1,-5"), 0.9, 400);
        assertTrue(other[2] < 1e-10, "drift " + other[2]);
        assertTrue(Double.isFinite(other[0]) && other[0] < 10, "bounded at CFL 0.9: " + other[0]);
    }

    @Test
    void aCflAboveOneIsUnstable() {
        // what the refusal of CFL > 1 protects from: the same run grows without bound
        double[] unstable = run(new Mesh(9, 9, 9), CavityMode.defaultMode(), 2.5, 400);
        assertTrue(!(unstable[0] < 1e3), "error at CFL 2.5: " + unstable[0]);
    }
}
