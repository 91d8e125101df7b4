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

    /**
     * At rank 0 (null elsewhere), the whole field for pictures: per column of cells along the axis, per row from
     * the axis to the wall (one row for the quasi-1D model), density, axial and radial velocity, pressure.
     */
    double[][][] gatherField() throws MPIException;

    /** Cells along the axis before rank {@code r}'s block: where the blocks meet, for pictures. */
    static int firstColumn(final int cells, final int r, final int size) {
        return (int) ((long) cells * r / size);
    }
}
