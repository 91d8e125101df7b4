package org.troupe.apps.jem3d;

import java.io.Serializable;

/**
 * What one subdomain needs to set itself up on its node: the global mesh, its block, the time step, the mode it
 * starts from, the number of steps, and every how many steps it measures its error (0: only at the end).
 */
public record SubdomainPlan(Mesh mesh, Block block, double dt, CavityMode mode, int steps, int errorEvery)
    implements Serializable {
}
