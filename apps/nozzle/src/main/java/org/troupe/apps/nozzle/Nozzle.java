package org.troupe.apps.nozzle;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import mpi.MPI;
import mpi.MPIException;

/**
 * Nozzle: steady compressible flow through a converging-diverging nozzle, as an MPI program ({@code import mpi.*},
 * nothing of Troupe's own): the cells are shared out in blocks along the axis, one per rank. Run it with
 * {@code bin/nozzle} (which goes through {@code bin/mpjrun}); rank 0 prints the progress and writes the results.
 */
public final class Nozzle {
    static final String USAGE = """
        usage: bin/nozzle [-np N] [-dev threads|jvm|hybrid] [-ppn K] [-descriptor FILE] [-timeout S] [-tag-output]
                          [-monitor[=PORT]] [options]
          Steady flow through a converging-diverging nozzle (Euler equations, perfect gas, gamma = 1.4), as an
          MPI program of N ranks sharing the cells along the axis. The launcher's options, which may come
          anywhere, go to bin/mpjrun (bin/mpjrun -h says more): -np N ranks (default 1); -dev threads (one JVM,
          the default), jvm (a JVM per rank) or hybrid (-ppn K ranks per JVM); -descriptor FILE runs the ranks
          in the JVMs a deployment descriptor starts, waiting -timeout S seconds for them; -tag-output prefixes
          each line with its rank; -monitor[=PORT] serves a live console of the job (ranks, bytes between them,
          the residual) and prints its URL. The options below are checked before any rank starts.
          --model q1d          quasi-one-dimensional flow (the default)
          --model axi          axisymmetric flow on a body-fitted (x, r) grid
          --case isentropic    supersonic from the throat to the exit (the default)
          --case shock         a normal shock in the diverging part, set by the back pressure
          --back-pressure P    the exit pressure for --case shock, in units of the inflow's stagnation pressure
                               (default: the one that puts the shock in the middle of the diverging part)
          --cells NX[xNR]      cells along the axis (default 200; axi: 120x30), and across the radius for axi
          --nozzle FILE        the nozzle: lines of "x r" (wall radius r along the axis); default: the shipped one
          --csv FILE           write the steady solution along the axis (axi: the centreline): x,area,rho,u,p,mach,
                               one row per cell
          --plot DIR           write PNG pictures into DIR: pressure, Mach number, density, temperature, entropy
                               and velocity over the section (with the ranks' blocks), the profiles along the
                               axis against the exact quasi-1D solution, the residual's history
          --tolerance F        stop when the residual has fallen by this factor from its peak (default 1e-9;
                               axi: 1e-6)
          --max-iterations K   give up after K iterations (default 100000)
          --cfl C              the Courant number of the local time steps (default 1.2)
          --iterations K       a benchmark: K iterations to warm up, then K more timed (no convergence check,
                               no solution written)
          Units: the inflow's stagnation state has density 1, temperature 1 and speed of sound 1 (so its pressure,
          p0, is 1/1.4: the CSV's p is in these units, --back-pressure and the pictures give p/p0). Exit status
          0 when converged; 2 for bad input; 1 for no convergence or a failed rank (the message says which).
        """;

    private Nozzle() {}

    /** The command line, after mpjrun's options. */
    record Options(
            String model,
            String nozzleCase,
            double backPressure,
            int cells,
            int radialCells,
            Path nozzle,
            Path csv,
            Path plot,
            double tolerance,
            int maxIterations,
            double cfl,
            int timedIterations) {
        static Options parse(final String[] args) {
            String model = "q1d";
            String nozzleCase = "isentropic";
            double backPressure = Double.NaN;
            String cells = null;
            Path nozzle = null;
            Path csv = null;
            Path plot = null;
            double tolerance = Double.NaN;
            int maxIterations = 100_000;
            double cfl = 1.2;
            int timed = 0;
            for (int i = 0; i < args.length; i++) {
                final String a = args[i];
                if (a.equals("-h") || a.equals("--help")) {
                    return null;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(
                            a.startsWith("--") ? a + " needs a value" : "unknown option " + a);
                }
                final String v = args[++i];
                switch (a) {
                    case "--model" -> model = oneOf(a, v, "q1d", "axi");
                    case "--case" -> nozzleCase = oneOf(a, v, "isentropic", "shock");
                    case "--back-pressure" -> backPressure = number(a, v, 0, 1) * Gas.STAGNATION_PRESSURE;
                    case "--cells" -> cells = v;
                    case "--nozzle" -> nozzle = Path.of(v);
                    case "--csv" -> csv = Path.of(v);
                    case "--plot" -> plot = Path.of(v);
                    case "--tolerance" -> tolerance = number(a, v, 1e-16, 0.1);
                    case "--max-iterations" -> maxIterations = (int) number(a, v, 1, 1e9);
                    case "--cfl" -> cfl = number(a, v, 0.01, 2.5);
                    case "--iterations" -> timed = (int) number(a, v, 1, 1e9);
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (!Double.isNaN(backPressure) && nozzleCase.equals("isentropic")) {
                throw new IllegalArgumentException("--back-pressure sets the shock of --case shock; the isentropic"
                        + " case leaves the nozzle supersonic, whatever the pressure beyond");
            }
            final boolean axi = model.equals("axi");
            final String grid = cells != null ? cells : axi ? "120x30" : "200";
            final String[] parts = grid.split("x", -1);
            if (parts.length != (axi ? 2 : 1)) {
                throw new IllegalArgumentException("--cells takes "
                        + (axi
                                ? "NXxNR (cells along the axis and across" + " the radius), e.g. 120x30"
                                : "the number of cells along the axis, e.g. 200")
                        + ", not '" + grid
                        + "'");
            }
            final int along = (int) number("--cells", parts[0], 8, 10_000_000);
            final int across = axi ? (int) number("--cells", parts[1], 2, 100_000) : 0;
            // The axisymmetric residual levels off near 1e-7 of its peak (round-off over many more cells).
            final double tol = Double.isNaN(tolerance) ? axi ? 1e-6 : 1e-9 : tolerance;
            return new Options(
                    model, nozzleCase, backPressure, along, across, nozzle, csv, plot, tol, maxIterations, cfl, timed);
        }

        private static String oneOf(final String option, final String v, final String... allowed) {
            for (final String s : allowed) {
                if (s.equals(v)) {
                    return v;
                }
            }
            throw new IllegalArgumentException(option + " takes " + String.join(" or ", allowed) + ", not '" + v + "'");
        }

        private static double number(final String option, final String v, final double min, final double max) {
            final double d;
            try {
                d = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " takes a number, not '" + v + "'");
            }
            if (!(d >= min && d <= max)) {
                throw new IllegalArgumentException(option + " " + v + " is out of range: from " + min + " to " + max);
            }
            return d;
        }
    }

    public static void main(final String[] args) throws MPIException {
        final String[] mine = MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final int status = run(mine, rank);
        MPI.Finalize();
        if (status != 0 && rank == 0) {
            System.exit(status); // the job's status: mpjrun reports a rank's exit after Finalize as its failure
        }
    }

    /**
     * Why this command line cannot run on {@code np} ranks, or null if it can (or asks for help): what each rank
     * checks before it computes, which {@link CheckOptions} checks before mpjrun starts the ranks.
     */
    static String problem(final String[] args, final int np) {
        try {
            final Options o = Options.parse(args);
            if (o == null) {
                return null;
            }
            exactOf(o, shapeOf(o));
            return refusal(o, np);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static NozzleShape shapeOf(final Options o) {
        return o.nozzle() == null ? NozzleShape.standard() : NozzleShape.read(o.nozzle());
    }

    /** The exact quasi-1D solution of the case, which refuses a back pressure that sets no shock. */
    private static ExactQ1d exactOf(final Options o, final NozzleShape shape) {
        if (!o.nozzleCase().equals("shock")) {
            return ExactQ1d.isentropic(shape);
        }
        final double middle = 0.5 * (ExactQ1d.isentropic(shape).throat() + shape.end());
        return ExactQ1d.withBackPressure(
                shape,
                Double.isNaN(o.backPressure()) ? ExactQ1d.backPressureForShockAt(shape, middle) : o.backPressure());
    }

    /** Every rank runs it; rank 0 speaks. Returns the exit status. */
    static int run(final String[] args, final int rank) throws MPIException {
        final Options o;
        final NozzleShape shape;
        final ExactQ1d exact;
        try { // every rank checks the input alike, so all stop together on bad input
            o = Options.parse(args);
            if (o == null) {
                if (rank == 0) {
                    System.out.print(USAGE);
                }
                return 0;
            }
            shape = shapeOf(o);
            exact = exactOf(o, shape);
        } catch (IllegalArgumentException e) {
            if (rank == 0) {
                System.err.println("nozzle: " + e.getMessage());
                System.err.println("nozzle: see bin/nozzle --help");
            }
            return 2;
        }
        final int np = MPI.COMM_WORLD.Size();
        final String refused = refusal(o, np);
        if (refused != null) { // decided alike on every rank: all stop here
            if (rank == 0) {
                System.err.println("nozzle: " + refused);
            }
            return 2;
        }
        final double backPressure =
                o.nozzleCase().equals("shock") ? exact.at(shape.end()).pressure() : Double.NaN;
        final Solver solver;
        try {
            solver = o.model().equals("axi")
                    ? new AxiSolver(MPI.COMM_WORLD, shape, o.cells(), o.radialCells(), o.cfl(), backPressure)
                    : new Q1dSolver(MPI.COMM_WORLD, shape, o.cells(), o.cfl(), backPressure);
        } catch (IllegalArgumentException e) {
            if (rank == 0) {
                System.err.println("nozzle: " + e.getMessage());
            }
            return 2;
        }
        if (rank == 0) {
            System.out.printf(
                    Locale.ROOT,
                    "nozzle: %s, %s, %s cells on %d rank%s%s%n",
                    o.model(),
                    o.nozzleCase(),
                    o.radialCells() > 0 ? o.cells() + "x" + o.radialCells() : String.valueOf(o.cells()),
                    np,
                    np == 1 ? "" : "s",
                    o.nozzleCase().equals("shock")
                            ? String.format(
                                    Locale.ROOT,
                                    ", back pressure %.5f (exact shock at x = %.4f)",
                                    backPressure / Gas.STAGNATION_PRESSURE,
                                    exact.shock())
                            : "");
        }
        final long cellCount = (long) o.cells() * Math.max(1, o.radialCells());
        if (o.timedIterations() > 0) {
            for (int i = 0; i < o.timedIterations(); i++) { // compiled by the JIT first: each rank's classes apart
                solver.step();
            }
            MPI.COMM_WORLD.Barrier();
            final double start = MPI.Wtime();
            for (int i = 0; i < o.timedIterations(); i++) {
                solver.step();
            }
            final double took = MPI.Wtime() - start;
            if (rank == 0) {
                System.out.printf(
                        Locale.ROOT,
                        "timed: %d iterations of %d cells in %.4f s (%.4g cell updates/s)%n",
                        o.timedIterations(),
                        cellCount,
                        took,
                        cellCount * o.timedIterations() / took);
            }
            return 0;
        }
        final double t0 = MPI.Wtime();
        double first = 0; // the largest residual so far: a start at rest has none until the flow starts
        double residual = Double.NaN;
        int iteration = 0;
        boolean converged = false;
        final List<double[]> history = new ArrayList<>();
        // rank 0's residual as a meter: mpjrun's console draws it (the meter stays until the JVM ends)
        final ResidualMeter shown = rank == 0 ? ResidualMeter.register() : null;
        while (iteration < o.maxIterations()) {
            final double mine = solver.step();
            iteration++;
            if (iteration % RESIDUAL_EVERY != 0 && iteration < o.maxIterations()) {
                continue;
            }
            residual = globalMaximum(mine);
            first = Math.max(first, residual);
            history.add(new double[] {iteration, residual});
            if (shown != null && first > 0) {
                shown.at(iteration, residual / first);
            }
            if (!Double.isFinite(residual)) {
                break;
            }
            if (residual <= o.tolerance() * first && first > 0) {
                converged = true;
                break;
            }
            if (rank == 0 && iteration % 2000 == 0) {
                System.out.printf(Locale.ROOT, "iteration %7d  residual %.3e%n", iteration, residual / first);
            }
        }
        final double seconds = MPI.Wtime() - t0;
        final double[][] rows = solver.gather();
        final double[][][] field = converged && o.plot() != null ? solver.gatherField() : null;
        if (rank != 0) {
            return 0;
        }
        if (!converged) {
            final double dx = (shape.end() - shape.start()) / o.cells();
            final boolean shockAtExit = !Double.isNaN(exact.shock()) && shape.end() - exact.shock() < 4 * dx;
            System.err.printf(
                    Locale.ROOT,
                    "nozzle: no steady state after %d iterations (the residual fell by %.3e," + " not %.1e)%s%n",
                    iteration,
                    residual / first,
                    o.tolerance(),
                    shockAtExit
                            ? ": a shock within a few"
                                    + " cells of the exit cannot be held there; use a higher --back-pressure or more --cells"
                            : Double.isFinite(residual)
                                    ? ": try more iterations (--max-iterations) or a smaller --cfl"
                                    : ": the solution blew up; try a smaller --cfl");
            return 1;
        }
        System.out.printf(
                Locale.ROOT,
                "iteration %7d  residual %.3e  converged in %.2f s (%.3g cell updates/s)%n",
                iteration,
                residual / first,
                seconds,
                (double) cellCount * iteration / seconds);
        report(rows, exact);
        if (o.model().equals("axi")) {
            // Through a captured shock the cells' momentum is not the flux (the scheme's dissipation carries part
            // of it): its columns are left out, more of them than the centreline's shock spans, as it is curved.
            final double shockAt = Double.isNaN(exact.shock()) ? Double.NaN : shockPosition(rows);
            final double dx = rows[1][0] - rows[0][0];
            double low = Double.MAX_VALUE;
            double high = 0;
            for (final double[] r : rows) {
                if (!(Math.abs(r[0] - shockAt) < 8 * dx)) {
                    low = Math.min(low, r[6]);
                    high = Math.max(high, r[6]);
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "mass flow along the nozzle: %.6g, within %.3f%%%s%n",
                    0.5 * (low + high),
                    100 * (high - low) / (0.5 * (low + high)),
                    Double.isNaN(shockAt) ? "" : " (away from the shock)");
        }
        if (o.csv() != null) {
            try {
                writeCsv(o.csv(), rows);
            } catch (IOException e) {
                System.err.println("nozzle: cannot write " + o.csv() + ": " + e.getMessage());
                return 2;
            }
            System.out.println("nozzle: wrote " + o.csv());
        }
        if (o.plot() != null) {
            final double peak = first;
            try {
                Plots.write(
                        o.plot(),
                        shape,
                        field,
                        rows,
                        np,
                        exact,
                        history.stream()
                                .map(h -> new double[] {h[0], h[1] / peak})
                                .toList());
            } catch (IOException e) {
                System.err.println("nozzle: cannot write the pictures into " + o.plot() + ": " + e.getMessage());
                return 2;
            }
            System.out.println("nozzle: pictures in " + o.plot());
        }
        return 0;
    }

    /**
     * Why the run cannot start, or null: too few cells for the ranks (each block needs two, for the ghost cells its
     * neighbours take), or an output that cannot be written (said now, not after the solve).
     */
    private static String refusal(final Options o, final int np) {
        if (o.cells() / np < 2) {
            return o.cells() + " cells along the axis cannot be shared by " + np + " ranks: each needs at least 2"
                    + " (use more cells or fewer ranks)";
        }
        if (o.csv() != null) {
            final Path parent = o.csv().toAbsolutePath().getParent();
            if (Files.isDirectory(o.csv())) {
                return "--csv " + o.csv() + " is a directory: name a file";
            }
            if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
                return "--csv " + o.csv() + ": no directory " + parent + " to write it in (or not writable)";
            }
        }
        if (o.plot() != null && Files.exists(o.plot()) && !Files.isDirectory(o.plot())) {
            return "--plot " + o.plot() + " is a file: name a directory (it is made if missing)";
        }
        return null;
    }

    /**
     * Iterations between two looks at the residual: each takes an Allreduce, a wait for every rank, which the
     * iterations between do without.
     */
    private static final int RESIDUAL_EVERY = 10;

    /** The largest of every rank's {@code mine}: the same on every rank, whatever the blocks. */
    private static double globalMaximum(final double mine) throws MPIException {
        final double[] out = new double[1];
        MPI.COMM_WORLD.Allreduce(new double[] {mine}, 0, out, 0, 1, MPI.DOUBLE, MPI.MAX);
        return out[0];
    }

    /** How far the solution is from the exact one: the largest error of Mach number and pressure, and the shock. */
    private static void report(final double[][] rows, final ExactQ1d exact) {
        final boolean shock = !Double.isNaN(exact.shock());
        double machError = 0;
        double pressureError = 0;
        for (final double[] r : rows) {
            final double x = r[0];
            final double dx = rows.length > 1 ? rows[1][0] - rows[0][0] : 1;
            if (shock && Math.abs(x - exact.shock()) < 4 * dx) {
                continue; // the captured shock spreads over a few cells
            }
            final ExactQ1d.State e = exact.at(x);
            machError = Math.max(machError, Math.abs(r[5] - e.mach()) / e.mach());
            pressureError = Math.max(pressureError, Math.abs(r[4] - e.pressure()) / e.pressure());
        }
        System.out.printf(
                Locale.ROOT,
                "against the exact solution: Mach within %.3f%%, pressure within %.3f%%%s%n",
                100 * machError,
                100 * pressureError,
                shock
                        ? String.format(
                                Locale.ROOT,
                                " (away from the shock); shock" + " at x = %.4f, exact %.4f",
                                shockPosition(rows),
                                exact.shock())
                        : "");
    }

    /** Where the pressure crosses the mean of its values before and after the jump (between cell centres). */
    static double shockPosition(final double[][] rows) {
        int steepest = 1;
        for (int i = 1; i < rows.length; i++) {
            if (rows[i][4] - rows[i - 1][4] > rows[steepest][4] - rows[steepest - 1][4]) {
                steepest = i;
            }
        }
        final double before = rows[Math.max(0, steepest - 4)][4];
        final double after = rows[Math.min(rows.length - 1, steepest + 3)][4];
        final double mid = 0.5 * (before + after);
        for (int i = Math.max(1, steepest - 4); i < Math.min(rows.length, steepest + 4); i++) {
            if (rows[i - 1][4] <= mid && rows[i][4] >= mid) {
                return rows[i - 1][0]
                        + (mid - rows[i - 1][4]) / (rows[i][4] - rows[i - 1][4]) * (rows[i][0] - rows[i - 1][0]);
            }
        }
        return rows[steepest][0];
    }

    static void writeCsv(final Path file, final double[][] rows) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            w.print("x,area,rho,u,p,mach\n");
            for (final double[] r : rows) {
                w.printf(Locale.ROOT, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", r[0], r[1], r[2], r[3], r[4], r[5]);
            }
        }
    }
}
