package org.troupe.apps.jem3d;

import java.io.Serializable;

/**
 * What one subdomain needs to set itself up on its node: the global mesh, its block, the time step, the mode it
 * starts from, the number of steps, every how many steps it measures its error (0: only at the end), the step it
 * starts after (0, or a checkpoint's step it restarts from), every how many steps it takes a checkpoint (0: never),
 * and the epoch of the run it belongs to (each restart begins one).
 */
public record SubdomainPlan(
        Mesh mesh,
        Block block,
        double dt,
        CavityMode mode,
        int steps,
        int errorEvery,
        int firstStep,
        int checkpointEvery,
        int epoch)
        implements Serializable {
    /** Checks what a peer sent: the block lies in the mesh, the time step and the counts make sense. */
    public SubdomainPlan {
        for (int d = 0; d < 3; d++) {
            if (block.hi()[d] > mesh.cells(d)) {
                throw new IllegalArgumentException(block + " lies outside mesh " + mesh);
            }
        }
        if (!(dt > 0 && Double.isFinite(dt))
                || steps < 1
                || errorEvery < 0
                || firstStep < 0
                || firstStep >= steps
                || checkpointEvery < 0
                || epoch < 0) {
            throw new IllegalArgumentException("a subdomain plan needs dt > 0, steps >= 1, errorEvery >= 0, "
                    + "0 <= firstStep < steps, checkpointEvery >= 0 and epoch >= 0, got " + dt + ", " + steps + ", "
                    + errorEvery + ", " + firstStep + ", " + checkpointEvery + ", " + epoch);
        }
    }

    /** A plan from the start, without checkpoints. */
    public SubdomainPlan(
            final Mesh mesh,
            final Block block,
            final double dt,
            final CavityMode mode,
            final int steps,
            final int errorEvery) {
        this(mesh, block, dt, mode, steps, errorEvery, 0, 0, 0);
    }
}
