package org.troupe.apps.nozzle;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

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

    /** Cells along the axis before rank {@code r}'s block: where the blocks meet. */
    static int firstColumn(final int cells, final int r, final int size) {
        return (int) ((long) cells * r / size);
    }

    /**
     * Fills the ghost cells: this block's edge values {@code toLeft} and {@code toRight} go to the neighbours, theirs
     * come into {@code fromLeft} and {@code fromRight} (left alone at the nozzle's ends), both ways at once.
     */
    static void exchange(
            final Intracomm comm,
            final double[] toLeft,
            final double[] toRight,
            final double[] fromLeft,
            final double[] fromRight)
            throws MPIException {
        final int rank = comm.Rank();
        final int left = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        final int right = rank < comm.Size() - 1 ? rank + 1 : MPI.PROC_NULL;
        Request.Waitall(new Request[] {
            comm.Irecv(fromLeft, 0, fromLeft.length, MPI.DOUBLE, left, 1),
            comm.Irecv(fromRight, 0, fromRight.length, MPI.DOUBLE, right, 2),
            comm.Isend(toRight, 0, toRight.length, MPI.DOUBLE, right, 1),
            comm.Isend(toLeft, 0, toLeft.length, MPI.DOUBLE, left, 2)
        });
    }

    /**
     * Every rank's {@code mine}, {@code perCell} values for each cell of its block of {@code cells}, at rank 0 in the
     * order of the cells (null elsewhere).
     */
    static double[] gatherBlocks(final Intracomm comm, final double[] mine, final int perCell, final int cells)
            throws MPIException {
        final int size = comm.Size();
        final int[] counts = new int[size];
        final int[] displs = new int[size];
        for (int r = 0; r < size; r++) {
            counts[r] = perCell * (firstColumn(cells, r + 1, size) - firstColumn(cells, r, size));
            displs[r] = perCell * firstColumn(cells, r, size);
        }
        final boolean root = comm.Rank() == 0;
        final double[] all = root ? new double[perCell * cells] : new double[0];
        comm.Gatherv(mine, 0, mine.length, MPI.DOUBLE, all, 0, counts, displs, MPI.DOUBLE, 0);
        return root ? all : null;
    }
}
