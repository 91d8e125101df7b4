package org.troupe.apps.nozzle;

import mpi.Intracomm;
import mpi.MPIException;

/**
 * The axisymmetric Euler equations on this rank's block of a body-fitted (x, r) grid: the columns of cells along x
 * are shared out among the ranks, each column cut into rows from the axis to the wall along radial lines. Finite
 * volumes of revolution (per radian: faces weighted by their radius, the radial momentum's source p times the cell's
 * area in the (x, r) plane), Jameson-Schmidt-Turkel fluxes with dissipation along each grid direction, four-stage
 * Runge-Kutta with local time steps. Two ghost columns at each end of a block come from the neighbours'
 * ({@code Irecv}, {@code Isend}) or from the inflow and outflow conditions; two ghost rows mirror the cells across
 * the axis and the wall. As in {@link Q1dSolver}, every cell is computed the same way whatever the blocks.
 */
final class AxiSolver implements Solver {
    private static final int GH = 2;
    private static final double[] STAGES = {1.0 / 4, 1.0 / 3, 1.0 / 2, 1.0};
    private static final double K2 = 0.5;
    private static final double K4 = 1.0 / 32;
    private static final double G = Gas.GAMMA;
    /**
     * The least second-difference dissipation across the radius. Without it the duct's first radial acoustic mode,
     * trapped in the subsonic converging part between the choked throat and the inflow, grows slowly on grids of
     * more than about 60 columns along the shipped nozzle: it is so smooth that fourth differences hardly damp it.
     */
    private static final double RADIAL_E2_FLOOR = 0.02;

    private final Intracomm comm;
    private final int rank;
    private final int size;
    private final int cellsX;
    private final int nr;
    private final int first;
    private final int nx;
    /** Rows of the arrays, ghosts included: cell (j, k) is at j * rows + k. */
    private final int rows;

    private final double start;
    private final double dx;
    private final double cfl;
    private final double backPressure;
    private final NozzleShape shape;
    /** The wall radius at the left face of local column j, at j (and the right face's at j + 1). */
    private final double[] wallR;

    private final double[] rho;
    private final double[] mu;
    private final double[] mv;
    private final double[] en;
    private final double[][] old = new double[4][];
    private final double[] p;
    private final double[] c;
    private final double[] fluxX0;
    private final double[] fluxX1;
    private final double[] fluxX2;
    private final double[] fluxX3;
    private final double[] fluxR0;
    private final double[] fluxR1;
    private final double[] fluxR2;
    private final double[] fluxR3;
    /** Edge columns going to the neighbours, and theirs coming in. */
    private final double[] toLeft;

    private final double[] toRight;
    private final double[] haloLeft;
    private final double[] haloRight;

    AxiSolver(
            final Intracomm comm,
            final NozzleShape shape,
            final int cellsX,
            final int cellsR,
            final double cfl,
            final double backPressure)
            throws MPIException {
        this.comm = comm;
        this.rank = comm.Rank();
        this.size = comm.Size();
        this.cellsX = cellsX;
        this.nr = cellsR;
        this.first = Solver.firstColumn(cellsX, rank, size);
        this.nx = Solver.firstColumn(cellsX, rank + 1, size) - first;
        if (nx < GH) {
            throw new IllegalArgumentException(cellsX + " columns of cells cannot be shared by " + size + " ranks:"
                    + " each needs at least " + GH + " (use more cells or fewer ranks)");
        }
        this.rows = nr + 2 * GH;
        this.start = shape.start();
        this.dx = (shape.end() - shape.start()) / cellsX;
        this.cfl = cfl;
        this.backPressure = backPressure;
        this.shape = shape;
        final int cols = nx + 2 * GH;
        wallR = new double[cols + 1];
        for (int j = 0; j <= cols; j++) {
            final double x = start + (first + j - GH) * dx;
            wallR[j] = shape.radius(Math.max(shape.start(), Math.min(shape.end(), x)));
        }
        final int m = cols * rows;
        rho = new double[m];
        mu = new double[m];
        mv = new double[m];
        en = new double[m];
        for (int k = 0; k < 4; k++) {
            old[k] = new double[m];
        }
        p = new double[m];
        c = new double[m];
        fluxX0 = new double[m];
        fluxX1 = new double[m];
        fluxX2 = new double[m];
        fluxX3 = new double[m];
        fluxR0 = new double[m];
        fluxR1 = new double[m];
        fluxR2 = new double[m];
        fluxR3 = new double[m];
        toLeft = new double[4 * GH * nr];
        toRight = new double[4 * GH * nr];
        haloLeft = new double[4 * GH * nr];
        haloRight = new double[4 * GH * nr];
        for (int j = 0; j < cols; j++) {
            final double xc = Math.max(shape.start(), Math.min(shape.end(), start + (first + j - GH + 0.5) * dx));
            for (int k = 0; k < rows; k++) {
                if (Double.isNaN(backPressure)) { // as Q1dSolver's starts
                    final double s = 3 * (xc - shape.start()) / (shape.end() - shape.start());
                    final double d = 1 - 0.3146 * s;
                    final double t = 1 - 0.2314 * s;
                    set(j * rows + k, d, (0.1 + 1.09 * s) * Math.sqrt(t), 0, d * t / G);
                } else {
                    set(j * rows + k, Gas.STAGNATION_DENSITY, 0, 0, Gas.STAGNATION_PRESSURE);
                }
            }
        }
    }

    private void set(final int at, final double d, final double u, final double v, final double pressure) {
        rho[at] = d;
        mu[at] = d * u;
        mv[at] = d * v;
        en[at] = pressure / (G - 1) + 0.5 * d * (u * u + v * v);
    }

    /** The radius of row line {@code k} (0 on the axis, nr at the wall) at the left face of column j. */
    private double lineR(final int j, final int k) {
        return wallR[j] * (k - GH) / nr;
    }

    @Override
    public double step() throws MPIException {
        for (int k = 0; k < 4; k++) {
            System.arraycopy(k == 0 ? rho : k == 1 ? mu : k == 2 ? mv : en, 0, old[k], 0, rho.length);
        }
        double residual = 0;
        for (int stage = 0; stage < STAGES.length; stage++) {
            exchangeGhosts();
            endColumns();
            mirrorRows();
            primitives();
            fluxesX();
            fluxesR();
            for (int j = GH; j < GH + nx; j++) {
                final double rl = wallR[j];
                final double rr = wallR[j + 1];
                for (int k = GH; k < GH + nr; k++) {
                    final int at = j * rows + k;
                    final double area = dx * (rl + rr) / (2 * nr); // in the (x, r) plane
                    final double rc = 0.5 * (rl + rr) * (k - GH + 0.5) / nr;
                    final double volume = area * rc;
                    final double r0 = fluxX0[at] - fluxX0[at - rows] + fluxR0[at] - fluxR0[at - 1];
                    final double r1 = fluxX1[at] - fluxX1[at - rows] + fluxR1[at] - fluxR1[at - 1];
                    final double r2 = fluxX2[at] - fluxX2[at - rows] + fluxR2[at] - fluxR2[at - 1] - p[at] * area;
                    final double r3 = fluxX3[at] - fluxX3[at - rows] + fluxR3[at] - fluxR3[at - 1];
                    final double u = Math.abs(mu[at] / rho[at]);
                    final double v = Math.abs(mv[at] / rho[at]);
                    final double hr = (rl + rr) / (2 * nr); // the cell's height
                    final double spectral = (u + c[at]) * hr * rc + (v + c[at]) * dx * rc; // through its faces
                    final double f = STAGES[stage] * cfl / spectral;
                    if (stage == 0) {
                        residual = Math.max(residual, Math.abs(r0 / volume));
                    }
                    rho[at] = old[0][at] - f * r0;
                    mu[at] = old[1][at] - f * r1;
                    mv[at] = old[2][at] - f * r2;
                    en[at] = old[3][at] - f * r3;
                }
            }
        }
        return residual;
    }

    private void exchangeGhosts() throws MPIException {
        pack(nx, toRight); // this block's last cells
        pack(GH, toLeft); // and its first
        Solver.exchange(comm, toLeft, toRight, haloLeft, haloRight);
        if (rank > 0) {
            unpack(haloLeft, 0);
        }
        if (rank < size - 1) {
            unpack(haloRight, GH + nx);
        }
    }

    private void pack(final int fromColumn, final double[] halo) {
        int i = 0;
        for (int j = fromColumn; j < fromColumn + GH; j++) {
            for (int k = GH; k < GH + nr; k++) {
                final int at = j * rows + k;
                halo[i++] = rho[at];
                halo[i++] = mu[at];
                halo[i++] = mv[at];
                halo[i++] = en[at];
            }
        }
    }

    private void unpack(final double[] halo, final int intoColumn) {
        int i = 0;
        for (int j = intoColumn; j < intoColumn + GH; j++) {
            for (int k = GH; k < GH + nr; k++) {
                final int at = j * rows + k;
                rho[at] = halo[i++];
                mu[at] = halo[i++];
                mv[at] = halo[i++];
                en[at] = halo[i++];
            }
        }
    }

    /** Inflow and outflow ghost columns, row by row, as {@link Q1dSolver}'s ghost cells (the inflow axial). */
    private void endColumns() {
        for (int k = GH; k < GH + nr; k++) {
            if (rank == 0) {
                for (int j = GH - 1; j >= 0; j--) {
                    final double u = Math.max(0, 2 * vel(mu, j + 1, k) - vel(mu, j + 2, k));
                    final double t = Math.max(1e-6, 1 - (G - 1) / 2 * u * u);
                    final double d = Gas.STAGNATION_DENSITY * Math.pow(t, 1 / (G - 1));
                    set(j * rows + k, d, u, 0, d * t / G);
                }
            }
            if (rank == size - 1) {
                for (int j = GH + nx; j < GH + nx + GH; j++) {
                    final int a = (j - 1) * rows + k;
                    final int b = (j - 2) * rows + k;
                    final double d = Math.max(1e-6, 2 * rho[a] - rho[b]);
                    final double pressure =
                            !Double.isNaN(backPressure) ? backPressure : Math.max(1e-9, 2 * pressure(a) - pressure(b));
                    set(
                            j * rows + k,
                            d,
                            2 * mu[a] / rho[a] - mu[b] / rho[b],
                            2 * mv[a] / rho[a] - mv[b] / rho[b],
                            pressure);
                }
            }
        }
    }

    private double vel(final double[] m, final int j, final int k) {
        return m[j * rows + k] / rho[j * rows + k];
    }

    private double pressure(final int at) {
        return (G - 1) * (en[at] - 0.5 * (mu[at] * mu[at] + mv[at] * mv[at]) / rho[at]);
    }

    /**
     * Ghost rows: across the axis the cells mirrored (radial velocity reversed), across the wall the cells mirrored
     * with their velocity reflected off the wall (its normal velocity reversed): the dissipation's stencils see a
     * symmetric flow there, and the wall's flux is set apart ({@link #fluxesR}).
     */
    private void mirrorRows() {
        for (int j = 0; j < nx + 2 * GH; j++) {
            final double tx = dx;
            final double tr = wallR[j + 1] - wallR[j];
            final double len = Math.hypot(tx, tr);
            final double nxw = -tr / len;
            final double nrw = tx / len;
            for (int g = 0; g < GH; g++) {
                final int in = j * rows + GH + g;
                final int out = j * rows + GH - 1 - g;
                rho[out] = rho[in];
                mu[out] = mu[in];
                mv[out] = -mv[in];
                en[out] = en[in];
                final int wIn = j * rows + GH + nr - 1 - g;
                final int wOut = j * rows + GH + nr + g;
                final double un = mu[wIn] * nxw + mv[wIn] * nrw;
                rho[wOut] = rho[wIn];
                mu[wOut] = mu[wIn] - 2 * un * nxw;
                mv[wOut] = mv[wIn] - 2 * un * nrw;
                en[wOut] = en[wIn];
            }
        }
    }

    private void primitives() {
        for (int at = 0; at < rho.length; at++) {
            p[at] = pressure(at);
            c[at] = Math.sqrt(Math.max(1e-12, G * p[at] / rho[at]));
        }
    }

    /** Through the faces between columns j and j + 1 (vertical: normal (1, 0)), for this block's rows. */
    private void fluxesX() {
        for (int j = GH - 1; j < GH + nx; j++) {
            final double rw = wallR[j + 1];
            for (int k = GH; k < GH + nr; k++) {
                final double w = (rw / nr) * (rw * (k - GH + 0.5) / nr); // length times radius
                final int a = j * rows + k;
                final int b = a + rows;
                final double ua = mu[a] / rho[a];
                final double ub = mu[b] / rho[b];
                final double lambda = 0.5 * (Math.abs(ua) + c[a] + Math.abs(ub) + c[b]) * w;
                final double e2 = K2 * Math.max(sensor(a - rows, a, b), sensor(a, b, b + rows));
                final double e4 = Math.max(0, K4 - e2);
                fluxX0[a] = 0.5 * w * (mu[a] + mu[b]) - dissipation(rho, a, rows, lambda, e2, e4);
                fluxX1[a] =
                        0.5 * w * (mu[a] * ua + p[a] + mu[b] * ub + p[b]) - dissipation(mu, a, rows, lambda, e2, e4);
                fluxX2[a] = 0.5 * w * (mv[a] * ua + mv[b] * ub) - dissipation(mv, a, rows, lambda, e2, e4);
                fluxX3[a] = 0.5 * w * ((en[a] + p[a]) * ua + (en[b] + p[b]) * ub)
                        - dissipation(en, a, rows, lambda, e2, e4);
            }
        }
    }

    /**
     * Through the faces between rows k and k + 1 of this block's columns: along the radial lines' ends, normal
     * (-dr, dx) / length. The axis has no area (radius 0); the wall lets nothing through but pressure.
     */
    private void fluxesR() {
        for (int j = GH; j < GH + nx; j++) {
            for (int k = GH - 1; k < GH + nr; k++) {
                final double rl = lineR(j, k + 1);
                final double rr = wallR[j + 1] * (k + 1 - GH) / nr;
                final double len = Math.hypot(dx, rr - rl);
                final double nxf = -(rr - rl) / len;
                final double nrf = dx / len;
                final double w = len * 0.5 * (rl + rr);
                final int a = j * rows + k;
                final int b = a + 1;
                if (k == GH + nr - 1) { // the wall: the pressure of the cell beside it
                    fluxR0[a] = 0;
                    fluxR1[a] = p[a] * nxf * w;
                    fluxR2[a] = p[a] * nrf * w;
                    fluxR3[a] = 0;
                    continue;
                }
                final double una = (mu[a] * nxf + mv[a] * nrf) / rho[a];
                final double unb = (mu[b] * nxf + mv[b] * nrf) / rho[b];
                final double lambda = 0.5 * (Math.abs(una) + c[a] + Math.abs(unb) + c[b]) * w;
                final double e2 = Math.max(RADIAL_E2_FLOOR, K2 * Math.max(sensor(a - 1, a, b), sensor(a, b, b + 1)));
                final double e4 = Math.max(0, K4 - e2);
                fluxR0[a] = 0.5 * w * (rho[a] * una + rho[b] * unb) - dissipation(rho, a, 1, lambda, e2, e4);
                fluxR1[a] = 0.5 * w * (mu[a] * una + p[a] * nxf + mu[b] * unb + p[b] * nxf)
                        - dissipation(mu, a, 1, lambda, e2, e4);
                fluxR2[a] = 0.5 * w * (mv[a] * una + p[a] * nrf + mv[b] * unb + p[b] * nrf)
                        - dissipation(mv, a, 1, lambda, e2, e4);
                fluxR3[a] =
                        0.5 * w * ((en[a] + p[a]) * una + (en[b] + p[b]) * unb) - dissipation(en, a, 1, lambda, e2, e4);
            }
        }
    }

    private double sensor(final int before, final int at, final int after) {
        return Math.abs(p[after] - 2 * p[at] + p[before]) / (p[after] + 2 * p[at] + p[before]);
    }

    /** JST dissipation through the face between {@code a} and {@code a + step}. */
    private static double dissipation(
            final double[] q, final int a, final int step, final double lambda, final double e2, final double e4) {
        final int b = a + step;
        return lambda * (e2 * (q[b] - q[a]) - e4 * (q[b + step] - 3 * q[b] + 3 * q[a] - q[a - step]));
    }

    /**
     * At rank 0 (null elsewhere), per column: the centreline's x, area, density, velocity, pressure and Mach number
     * (the row next to the axis), then the mass flow through the column.
     */
    @Override
    public double[][][] gatherField() throws MPIException {
        final double[] mine = new double[4 * nr * nx];
        int i = 0;
        for (int j = GH; j < GH + nx; j++) {
            for (int k = GH; k < GH + nr; k++) {
                final int at = j * rows + k;
                mine[i++] = rho[at];
                mine[i++] = mu[at] / rho[at];
                mine[i++] = mv[at] / rho[at];
                mine[i++] = pressure(at);
            }
        }
        final double[] all = Solver.gatherBlocks(comm, mine, 4 * nr, cellsX);
        if (all == null) {
            return null;
        }
        final double[][][] field = new double[cellsX][nr][4];
        for (int c = 0, at = 0; c < cellsX; c++) {
            for (int k = 0; k < nr; k++, at += 4) {
                System.arraycopy(all, at, field[c][k], 0, 4);
            }
        }
        return field;
    }

    @Override
    public double[][] gather() throws MPIException {
        final int width = 7;
        final double[] mine = new double[width * nx];
        for (int i = 0; i < nx; i++) {
            final int j = GH + i;
            final int at = j * rows + GH;
            final double u = mu[at] / rho[at];
            final double v = mv[at] / rho[at];
            final double pr = pressure(at);
            final double rc = 0.5 * (wallR[j] + wallR[j + 1]);
            double flow = 0;
            for (int k = GH; k < GH + nr; k++) {
                final double inner = rc * (k - GH) / nr;
                final double outer = rc * (k - GH + 1) / nr;
                flow += mu[j * rows + k] * Math.PI * (outer * outer - inner * inner);
            }
            final double xc = start + (first + i + 0.5) * dx;
            final double[] row = {
                xc, shape.area(xc), rho[at], u, pr, Math.hypot(u, v) / Math.sqrt(G * pr / rho[at]), flow
            };
            System.arraycopy(row, 0, mine, width * i, width);
        }
        final double[] all = Solver.gatherBlocks(comm, mine, width, cellsX);
        if (all == null) {
            return null;
        }
        final double[][] out = new double[cellsX][width];
        for (int i = 0; i < cellsX; i++) {
            System.arraycopy(all, width * i, out[i], 0, width);
        }
        return out;
    }
}
