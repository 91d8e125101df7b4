package org.troupe.apps.jem3d;

import java.io.Serializable;

/**
 * The collector's view of a run: the steps every subdomain has completed, the step the run ends at, the largest
 * relative energy drift so far, how many subdomains have finished, whether the run is paused, the first failure a
 * subdomain reported (null if none), and the step of the latest complete checkpoint since the run last (re)started
 * (-1 if none).
 */
public record RunStatus(
        int stepsDone,
        int stepsPlanned,
        double energyDrift,
        int finished,
        int subdomains,
        boolean paused,
        String failure,
        int checkpointStep)
        implements Serializable {
    public boolean isOver() {
        return finished == subdomains || failure != null;
    }
}
