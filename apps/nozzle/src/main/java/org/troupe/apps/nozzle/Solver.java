package org.troupe.apps.nozzle;

import mpi.MPIException;

/** A steady-flow solver on this rank's block of the nozzle's cells. */
interface Solver {
    /** One Runge-Kutta step; the largest density change rate of this rank's cells (its residual). */
    double step() throws MPIException;

    /**
     * At rank 0 (null elsewhere), a row per cell along the axis: x, area, density, velocity, pressure, Mach number
     * (on the centreline for the axisymmetric model, which adds the mass flow through the cross-section).
     */
    double[][] gather() throws MPIException;
}
