package org.troupe.apps.nozzle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nozzle as its users run it, through mpjrun (ranks as threads): the steady quasi-1D solutions against the exact
 * ones, the same result on any number of ranks, and bad input said plainly.
 */
class NozzleRunTest {
    private static final Path CLASSES = Path.of("target", "classes");

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {}

    private Run nozzle(final int np, final String... args) throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                "org.troupe.mpi.run.MpjRun",
                "-np",
                String.valueOf(np),
                "-cp",
                CLASSES.toString(),
                Nozzle.class.getName()));
        command.addAll(List.of(args));
        final Path out = dir.resolve("out.txt");
        final Path err = dir.resolve("err.txt");
        final Process p = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "nozzle ended");
            return new Run(
                    p.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            p.destroyForcibly();
        }
    }

    private static double[][] csv(final Path file) throws IOException {
        final List<String> lines = Files.readAllLines(file);
        assertEquals("x,area,rho,u,p,mach", lines.getFirst());
        return lines.stream()
                .skip(1)
                .map(l -> Arrays.stream(l.split(","))
                        .mapToDouble(Double::parseDouble)
                        .toArray())
                .toArray(double[][]::new);
    }

    @Test
    void theIsentropicFlowMatchesTheAreaMachRelation() throws Exception {
        final Path file = dir.resolve("isentropic.csv");
        final Run r = nozzle(2, "--case", "isentropic", "--csv", file.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        final double[][] rows = csv(file);
        assertEquals(200, rows.length);
        final ExactQ1d exact = ExactQ1d.isentropic(NozzleShape.standard());
        for (final double[] row : rows) {
            final ExactQ1d.State e = exact.at(row[0]);
            assertEquals(e.mach(), row[5], 0.01 * e.mach(), "Mach at x = " + row[0]);
            assertEquals(e.pressure(), row[4], 0.01 * e.pressure(), "pressure at x = " + row[0]);
        }
    }

    @Test
    void theShockStandsWhereTheNormalShockRelationsPutItOnAnyNumberOfRanks() throws Exception {
        final NozzleShape shape = NozzleShape.standard();
        final double pb = ExactQ1d.backPressureForShockAt(shape, 2.1);
        final ExactQ1d exact = ExactQ1d.withBackPressure(shape, pb);
        double[][] one = null;
        for (final int np : new int[] {1, 2, 4}) {
            final Path file = dir.resolve("shock-" + np + ".csv");
            final Run r = nozzle(
                    np,
                    "--case",
                    "shock",
                    "--back-pressure",
                    String.valueOf(pb / Gas.STAGNATION_PRESSURE),
                    "--csv",
                    file.toString());
            assertEquals(0, r.exit(), r.out() + r.err());
            final double[][] rows = csv(file);
            if (one == null) {
                one = rows;
                final double dx = rows[1][0] - rows[0][0];
                assertEquals(exact.shock(), Nozzle.shockPosition(rows), 2 * dx, "the shock's position");
                for (final double[] row : rows) {
                    if (Math.abs(row[0] - exact.shock()) < 4 * dx) {
                        continue; // the shock captured over a few cells
                    }
                    final ExactQ1d.State e = exact.at(row[0]);
                    assertEquals(e.mach(), row[5], 0.01 * e.mach(), "Mach at x = " + row[0]);
                    assertEquals(e.pressure(), row[4], 0.01 * e.pressure(), "pressure at x = " + row[0]);
                    assertEquals(e.density(), row[2], 0.01 * e.density(), "density at x = " + row[0]);
                }
            } else {
                for (int i = 0; i < rows.length; i++) {
                    for (int k = 0; k < 6; k++) {
                        assertEquals(one[i][k], rows[i][k], 1e-12 * Math.abs(one[i][k]), "np " + np + ", cell " + i);
                    }
                }
            }
        }
    }

    /** The axisymmetric model: the same mass flow through every cross-section, on any number of ranks. */
    @Test
    void theAxisymmetricFlowKeepsItsMassFlowAlongTheNozzle() throws Exception {
        String one = null;
        for (final int np : new int[] {1, 3}) {
            final Path file = dir.resolve("axi-" + np + ".csv");
            final Run r =
                    nozzle(np, "--model", "axi", "--cells", "60x12", "--tolerance", "1e-6", "--csv", file.toString());
            assertEquals(0, r.exit(), r.out() + r.err());
            final Matcher m = Pattern.compile("mass flow along the nozzle: \\S+," + " within ([0-9.]+)%")
                    .matcher(r.out());
            assertTrue(m.find(), r.out());
            assertTrue(Double.parseDouble(m.group(1)) < 0.5, r.out());
            if (one == null) {
                one = Files.readString(file);
            } else {
                assertEquals(one, Files.readString(file), "the same on " + np + " ranks as on one");
            }
        }
    }

    /**
     * The default grid converges (without the radial dissipation floor a radial acoustic mode grows on it), with and
     * without a shock.
     */
    @Test
    void theAxisymmetricFlowConvergesOnTheDefaultGrid() throws Exception {
        for (final String flow : new String[] {"isentropic", "shock"}) {
            final Run r = nozzle(2, "--model", "axi", "--case", flow);
            assertEquals(0, r.exit(), r.out() + r.err());
            assertTrue(r.out().contains("nozzle: axi, " + flow + ", 120x30 cells on 2 ranks"), r.out());
            final Matcher m = Pattern.compile("mass flow along the nozzle: \\S+," + " within ([0-9.]+)%")
                    .matcher(r.out());
            assertTrue(m.find() && Double.parseDouble(m.group(1)) < 0.5, r.out());
        }
    }

    /** Where the nozzle varies slowly, the centreline of the axisymmetric flow is the quasi-1D flow. */
    @Test
    void theAxisymmetricCentrelineOfASlowNozzleIsTheQuasiOneDimensionalFlow() throws Exception {
        final StringBuilder slow = new StringBuilder("# the shipped nozzle stretched three times along x\n");
        for (int k = 0; k <= 60; k++) {
            final double x = 9.0 * k / 60;
            slow.append(x)
                    .append(' ')
                    .append(0.1 * Math.sqrt(1 + 2.2 * Math.pow((x - 4.5) / 3, 2)))
                    .append('\n');
        }
        final Path nozzleFile = Files.writeString(dir.resolve("slow.txt"), slow);
        final Path file = dir.resolve("slow.csv");
        final Run r = nozzle(
                2,
                "--model",
                "axi",
                "--nozzle",
                nozzleFile.toString(),
                "--cells",
                "90x10",
                "--tolerance",
                "1e-6",
                "--csv",
                file.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        final ExactQ1d exact = ExactQ1d.isentropic(NozzleShape.read(nozzleFile));
        for (final double[] row : csv(file)) {
            final double m = exact.at(row[0]).mach();
            assertEquals(m, row[5], 0.02 * m, "centreline Mach at x = " + row[0]);
        }
    }

    /** --plot: the six fields, the profiles and the residual's history, as PNG pictures, for both models. */
    @Test
    void thePicturesAreWritten() throws Exception {
        for (final String model : new String[] {"q1d", "axi"}) {
            final Path plots = dir.resolve("plots-" + model);
            final Run r = nozzle(
                    2,
                    "--model",
                    model,
                    "--case",
                    "shock",
                    "--cells",
                    model.equals("axi") ? "60x12" : "200",
                    "--plot",
                    plots.toString());
            assertEquals(0, r.exit(), r.out() + r.err());
            for (final String name : new String[] {
                "pressure", "mach", "density", "temperature", "entropy", "velocity", "profiles", "residual"
            }) {
                final BufferedImage image =
                        ImageIO.read(plots.resolve(name + ".png").toFile());
                assertTrue(image != null && image.getWidth() > 500 && image.getHeight() > 200, model + " " + name);
            }
        }
    }

    @Test
    void badInputIsSaidAndEndsTheRunWithAFailure() throws Exception {
        final Run pressure = nozzle(2, "--case", "shock", "--back-pressure", "0.999");
        assertTrue(pressure.exit() != 0, pressure.out());
        assertTrue(
                pressure.err().contains("nozzle: a back pressure of 0.99900 puts no normal shock in this nozzle"),
                pressure.err());
        Files.writeString(dir.resolve("bad.txt"), "0 1\n1 0.5\nthree 1\n");
        final Run file = nozzle(1, "--nozzle", dir.resolve("bad.txt").toString());
        assertTrue(file.exit() != 0, file.out());
        assertTrue(file.err().contains("bad.txt, line 3: 'three 1' is not two numbers"), file.err());
        final Run ranks = nozzle(5, "--cells", "9");
        assertTrue(
                ranks.exit() != 0 && ranks.err().contains("9 cells along the axis cannot be shared by 5 ranks"),
                ranks.err());
        assertTrue(!ranks.err().contains("stopped in an MPI call"), "every rank stops alike: " + ranks.err());
        final Run csv = nozzle(1, "--csv", dir.resolve("no/such/dir/x.csv").toString());
        assertTrue(
                csv.exit() != 0
                        && csv.err().contains("no directory")
                        && !csv.out().contains("converged"),
                csv.err());
        final Run option = nozzle(1, "--cells", "many");
        assertTrue(option.exit() != 0 && option.err().contains("--cells takes a number, not 'many'"), option.err());
    }

    @Test
    void aRunThatDoesNotConvergeSaysSo() throws Exception {
        final Run r = nozzle(1, "--max-iterations", "50");
        assertTrue(r.exit() != 0, r.out());
        assertTrue(r.err().contains("nozzle: no steady state after 50 iterations"), r.err());
    }
}
