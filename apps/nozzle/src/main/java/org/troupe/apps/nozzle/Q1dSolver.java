package org.troupe.apps.nozzle;

import mpi.Intracomm;
import mpi.MPIException;

/**
 * The quasi-one-dimensional Euler equations on this rank's block of a nozzle's cells: cell-centred finite volumes,
 * Jameson-Schmidt-Turkel central fluxes with second- and fourth-difference dissipation, four-stage Runge-Kutta with
 * local time steps to the steady state. Each block keeps two ghost cells at each end, filled before every stage
 * from its neighbours' blocks ({@code Irecv}, {@code Isend}) or, at the nozzle's ends, by the inflow and outflow
 * conditions. Each cell's update depends on its neighbours' values only, computed the same way whatever the blocks:
 * the result is the same for any number of ranks.
 */
final class Q1dSolver implements Solver {
    private static final int GHOSTS = 2;
    private static final double[] STAGES = {1.0 / 4, 1.0 / 3, 1.0 / 2, 1.0};
    /** Jameson's dissipation coefficients: second differences near shocks, fourth differences elsewhere. */
    private static final double K2 = 0.5;

    private static final double K4 = 1.0 / 32;
    private static final double G = Gas.GAMMA;

    private final Intracomm comm;
    private final int rank;
    private final int size;
    private final int cells;
    private final int first;
    /** Cells of this block; local index j = GHOSTS .. GHOSTS + n - 1 are its own. */
    private final int n;

    private final double start;
    private final double dx;
    private final double cfl;
    /** The pressure held at a subsonic exit, or NaN for a supersonic one (extrapolated). */
    private final double backPressure;

    private final double[] area;
    /** Area of the face between local cells j and j + 1, at index j. */
    private final double[] faceArea;

    private final double[] rho;
    private final double[] mom;
    private final double[] energy;
    private final double[] rho0;
    private final double[] mom0;
    private final double[] energy0;
    private final double[] pressure;
    private final double[] speed;
    private final double[] sensor;
    private final double[][] flux = new double[3][];
    /** Edge cells going to the neighbours, and theirs coming in. */
    private final double[] toLeft = new double[3 * GHOSTS];

    private final double[] toRight = new double[3 * GHOSTS];
    private final double[] haloLeft = new double[3 * GHOSTS];
    private final double[] haloRight = new double[3 * GHOSTS];

    Q1dSolver(
            final Intracomm comm, final NozzleShape shape, final int cells, final double cfl, final double backPressure)
            throws MPIException {
        this.comm = comm;
        this.rank = comm.Rank();
        this.size = comm.Size();
        this.cells = cells;
        this.first = Solver.firstColumn(cells, rank, size);
        this.n = Solver.firstColumn(cells, rank + 1, size) - first;
        if (n < GHOSTS) {
            throw new IllegalArgumentException(cells + " cells cannot be shared by " + size + " ranks: each needs at"
                    + " least " + GHOSTS + " (use more cells or fewer ranks)");
        }
        this.start = shape.start();
        this.dx = (shape.end() - shape.start()) / cells;
        this.cfl = cfl;
        this.backPressure = backPressure;
        final int m = n + 2 * GHOSTS;
        area = new double[m];
        faceArea = new double[m];
        rho = new double[m];
        mom = new double[m];
        energy = new double[m];
        rho0 = new double[m];
        mom0 = new double[m];
        energy0 = new double[m];
        pressure = new double[m];
        speed = new double[m];
        sensor = new double[m];
        for (int k = 0; k < 3; k++) {
            flux[k] = new double[m];
        }
        for (int j = 0; j < m; j++) {
            final double xc = Math.max(shape.start(), Math.min(shape.end(), centre(j)));
            area[j] = shape.area(xc);
            faceArea[j] = shape.area(Math.max(shape.start(), Math.min(shape.end(), centre(j) + dx / 2)));
            if (Double.isNaN(backPressure)) { // towards a supersonic exit, as Anderson's start
                final double s = 3 * (xc - shape.start()) / (shape.end() - shape.start());
                final double d = 1 - 0.3146 * s;
                final double t = 1 - 0.2314 * s;
                set(j, d, (0.1 + 1.09 * s) * Math.sqrt(t), d * t / G);
            } else { // at rest at the stagnation state: the back pressure at the exit starts the flow
                set(j, Gas.STAGNATION_DENSITY, 0, Gas.STAGNATION_PRESSURE);
            }
        }
    }

    /** The x of local cell {@code j}'s centre. */
    private double centre(final int j) {
        return start + (first + j - GHOSTS + 0.5) * dx;
    }

    private void set(final int j, final double d, final double u, final double p) {
        rho[j] = d;
        mom[j] = d * u;
        energy[j] = p / (G - 1) + 0.5 * d * u * u;
    }

    @Override
    public double step() throws MPIException {
        System.arraycopy(rho, 0, rho0, 0, rho.length);
        System.arraycopy(mom, 0, mom0, 0, mom.length);
        System.arraycopy(energy, 0, energy0, 0, energy.length);
        double residual = 0;
        for (int stage = 0; stage < STAGES.length; stage++) {
            exchangeGhosts();
            boundaries();
            fluxes();
            for (int j = GHOSTS; j < GHOSTS + n; j++) {
                final double volume = area[j] * dx;
                final double rRho = flux[0][j] - flux[0][j - 1];
                final double rMom = flux[1][j] - flux[1][j - 1] - pressure[j] * (faceArea[j] - faceArea[j - 1]);
                final double rEnergy = flux[2][j] - flux[2][j - 1];
                final double dt = cfl * dx / speed[j];
                final double f = STAGES[stage] * dt / volume;
                if (stage == 0) {
                    residual = Math.max(residual, Math.abs(rRho / volume));
                }
                rho[j] = rho0[j] - f * rRho;
                mom[j] = mom0[j] - f * rMom;
                energy[j] = energy0[j] - f * rEnergy;
            }
        }
        return residual;
    }

    /** The neighbours' edge cells into this block's ghost cells (nothing at the nozzle's ends). */
    private void exchangeGhosts() throws MPIException {
        pack(n, toRight); // this block's last cells
        pack(GHOSTS, toLeft); // and its first
        Solver.exchange(comm, toLeft, toRight, haloLeft, haloRight);
        if (rank > 0) {
            unpack(haloLeft, 0);
        }
        if (rank < size - 1) {
            unpack(haloRight, GHOSTS + n);
        }
    }

    private void pack(final int from, final double[] halo) {
        for (int g = 0; g < GHOSTS; g++) {
            halo[3 * g] = rho[from + g];
            halo[3 * g + 1] = mom[from + g];
            halo[3 * g + 2] = energy[from + g];
        }
    }

    private void unpack(final double[] halo, final int into) {
        for (int g = 0; g < GHOSTS; g++) {
            rho[into + g] = halo[3 * g];
            mom[into + g] = halo[3 * g + 1];
            energy[into + g] = halo[3 * g + 2];
        }
    }

    /**
     * The ghost cells at the nozzle's ends, from the two cells next to each (linear extrapolation, so that the end
     * cells are as accurate as the others). Inflow: the stagnation state, expanded isentropically to the velocity
     * extrapolated from the first cells. Outflow: density and velocity extrapolated, and the pressure too for a
     * supersonic exit; a subsonic one is held at the back pressure (which, from a supersonic start, sends the shock
     * upstream to where it stands).
     */
    private void boundaries() {
        if (rank == 0) {
            for (int j = GHOSTS - 1; j >= 0; j--) {
                final double u = Math.max(0, 2 * velocity(j + 1) - velocity(j + 2));
                final double t = Math.max(1e-6, 1 - (G - 1) / 2 * u * u); // c^2, as c0 = 1
                final double d = Gas.STAGNATION_DENSITY * Math.pow(t, 1 / (G - 1));
                set(j, d, u, d * t / G);
            }
        }
        if (rank == size - 1) {
            final int last = GHOSTS + n - 1;
            for (int j = last + 1; j < last + 1 + GHOSTS; j++) {
                final double d = Math.max(1e-6, 2 * rho[j - 1] - rho[j - 2]);
                final double u = 2 * velocity(j - 1) - velocity(j - 2);
                final double p = !Double.isNaN(backPressure)
                        ? backPressure
                        : Math.max(1e-9, 2 * pressureOf(j - 1) - pressureOf(j - 2));
                set(j, d, u, p);
            }
        }
    }

    private double velocity(final int j) {
        return mom[j] / rho[j];
    }

    private double pressureOf(final int j) {
        return (G - 1) * (energy[j] - 0.5 * mom[j] * mom[j] / rho[j]);
    }

    /** The numerical flux through each face of this block's cells, times the face's area. */
    private void fluxes() {
        final int m = n + 2 * GHOSTS;
        for (int j = 0; j < m; j++) {
            final double u = mom[j] / rho[j];
            pressure[j] = (G - 1) * (energy[j] - 0.5 * mom[j] * u);
            speed[j] = Math.abs(u) + Math.sqrt(G * pressure[j] / rho[j]);
        }
        for (int j = 1; j < m - 1; j++) {
            sensor[j] = Math.abs(pressure[j + 1] - 2 * pressure[j] + pressure[j - 1])
                    / (pressure[j + 1] + 2 * pressure[j] + pressure[j - 1]);
        }
        for (int j = GHOSTS - 1; j < GHOSTS + n; j++) { // the face between j and j + 1
            final double uL = mom[j] / rho[j];
            final double uR = mom[j + 1] / rho[j + 1];
            final double lambda = 0.5 * (speed[j] + speed[j + 1]);
            final double e2 = K2 * Math.max(sensor[j], sensor[j + 1]);
            final double e4 = Math.max(0, K4 - e2);
            final double a = faceArea[j];
            flux[0][j] = a * (0.5 * (mom[j] + mom[j + 1]) - dissipation(rho, j, lambda, e2, e4));
            flux[1][j] = a
                    * (0.5 * (mom[j] * uL + pressure[j] + mom[j + 1] * uR + pressure[j + 1])
                            - dissipation(mom, j, lambda, e2, e4));
            flux[2][j] = a
                    * (0.5 * ((energy[j] + pressure[j]) * uL + (energy[j + 1] + pressure[j + 1]) * uR)
                            - dissipation(energy, j, lambda, e2, e4));
        }
    }

    private static double dissipation(
            final double[] q, final int j, final double lambda, final double e2, final double e4) {
        return lambda * (e2 * (q[j + 1] - q[j]) - e4 * (q[j + 2] - 3 * q[j + 1] + 3 * q[j] - q[j - 1]));
    }

    /**
     * The steady solution of every rank's cells, at rank 0 (null elsewhere): per cell x, area, density, velocity,
     * pressure and Mach number, in that order.
     */
    @Override
    public double[][][] gatherField() throws MPIException {
        final double[][] rows = gather();
        if (rows == null) {
            return null;
        }
        final double[][][] field = new double[rows.length][1][];
        for (int i = 0; i < rows.length; i++) {
            field[i][0] = new double[] {rows[i][2], rows[i][3], 0, rows[i][4]};
        }
        return field;
    }

    @Override
    public double[][] gather() throws MPIException {
        final double[] mine = new double[6 * n];
        for (int i = 0; i < n; i++) {
            final int j = GHOSTS + i;
            final double u = mom[j] / rho[j];
            final double p = (G - 1) * (energy[j] - 0.5 * mom[j] * u);
            final double[] row = {centre(j), area[j], rho[j], u, p, u / Math.sqrt(G * p / rho[j])};
            System.arraycopy(row, 0, mine, 6 * i, 6);
        }
        final double[] all = Solver.gatherBlocks(comm, mine, 6, cells);
        if (all == null) {
            return null;
        }
        final double[][] rows = new double[cells][6];
        for (int i = 0; i < cells; i++) {
            System.arraycopy(all, 6 * i, rows[i], 0, 6);
        }
        return rows;
    }
}
