package org.troupe.apps.jem3d;

import java.io.Serializable;

/**
 * A subdomain's account of its run: the steps it made, its share of the squared errors (sums of V |E - exact|^2
 * and V |H - exact|^2) at the end, the heap its data takes, the seconds its time loop took, how much of them it spent
 * waiting for its neighbours' values, and how much taking checkpoints.
 */
public record SubdomainResult(
        int index,
        int steps,
        double errorSquareE,
        double errorSquareH,
        long heapBytes,
        double seconds,
        double waitSeconds,
        double checkpointSeconds)
        implements Serializable {}
