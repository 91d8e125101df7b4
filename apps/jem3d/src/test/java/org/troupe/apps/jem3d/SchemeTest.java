package org.troupe.apps.jem3d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The scheme on one block (the sequential run): energy, reference errors against the exact mode, convergence. */
class SchemeTest {
    private static final double PERIOD_111 = 2 / Math.sqrt(3);

    /** Runs mode 111 for one period at CFL 0.5 and returns {E error, H error, max relative energy drift}. */
    static double[] run(final int m) {
        Mesh mesh = new Mesh(m, m, m);
        double dt = mesh.timeStep(0.5);
        int steps = (int) Math.ceil(PERIOD_111 / dt);
        Block block = Block.divide(mesh, new int[] {1, 1, 1}).getFirst();
        BlockSolver solver = new BlockSolver(mesh, block, dt);
        CavityMode mode = CavityMode.defaultMode();
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
        System.out.printf("m=11 E %.4e H %.4e drift %.2e%nm=21 E %.4e H %.4e drift %.2e%n", coarse[0], coarse[1],
            coarse[2], fine[0], fine[1], fine[2]);
        assertEquals(7.7e-2, coarse[0], 7.7e-3, "E error at m=11");
        assertEquals(2.9e-2, fine[0], 2.9e-3, "E error at m=21");
        double ratio = coarse[0] / fine[0];
        assertTrue(ratio > 2 && ratio < 3, "E error ratio per halving of h: " + ratio);
        assertTrue(coarse[2] < 1e-10 && fine[2] < 1e-10, "energy drift " + coarse[2] + ", " + fine[2]);
    }
}
