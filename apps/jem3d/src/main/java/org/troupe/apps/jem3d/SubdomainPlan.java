package org.troupe.apps.jem3d;

import java.io.Serializable;

/**
 * What one subdomain needs to set itself up on its node: the global mesh, its block, the time step, the mode it
 * starts from, the number of steps, and every how many steps it measures its error (0: only at the end).
 */
public record SubdomainPlan(Mesh mesh, Block block, double dt, CavityMode mode, int steps, int errorEvery)
        implements Serializable {
    /** Checks what a peer sent: the block lies in the mesh, the time step and the counts make sense. */
    public SubdomainPlan {
        for (int d = 0; d < 3; d++) {
            if (block.hi()[d] > mesh.cells(d)) {
                throw new IllegalArgumentException(block + " lies outside mesh " + mesh);
            }
        }
        if (!(dt > 0 && Double.isFinite(dt)) || steps < 1 || errorEvery < 0) {
            throw new IllegalArgumentException("a subdomain plan needs dt > 0, steps >= 1 and errorEvery >= 0, got "
                    + dt + ", " + steps + ", " + errorEvery);
        }
    }
}
