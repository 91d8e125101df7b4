package org.troupe.apps.nozzle;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Polygon;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * The pictures of {@code --plot DIR}, drawn with Java 2D (the JDK's own, so a run needs no more on its class path):
 * the six fields the original displayed (pressure, Mach number, density, temperature, entropy, velocity) over the
 * nozzle's section, mirrored about the axis, with the blocks' boundaries; the profiles along the axis against the
 * exact quasi-1D solution; the residual's history.
 */
final class Plots {
    private static final int WIDTH = 1100;
    private static final int MARGIN = 60;
    private static final Font FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    /** Viridis, sampled: dark blue for the least, yellow for the most. */
    private static final int[] MAP = {
        0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c, 0x28ae80, 0x5ec962, 0xaadc32, 0xfde725
    };

    /** A field of a cell: density, axial and radial velocity, pressure in; the value out. */
    private record Quantity(String file, String title, ToDoubleFunction<double[]> of) {}

    private static final List<Quantity> FIELDS = List.of(
            new Quantity("pressure", "pressure p / p0", c -> c[3] / Gas.STAGNATION_PRESSURE),
            new Quantity("mach", "Mach number", c -> Math.hypot(c[1], c[2]) / Math.sqrt(Gas.GAMMA * c[3] / c[0])),
            new Quantity("density", "density rho / rho0", c -> c[0] / Gas.STAGNATION_DENSITY),
            new Quantity("temperature", "temperature T / T0", c -> Gas.GAMMA * c[3] / c[0]),
            new Quantity(
                    "entropy",
                    "entropy (s - s0) / cv",
                    c -> Math.log(c[3] / Gas.STAGNATION_PRESSURE / Math.pow(c[0] / Gas.STAGNATION_DENSITY, Gas.GAMMA))),
            new Quantity("velocity", "velocity |V| / a0", c -> Math.hypot(c[1], c[2])));

    private Plots() {}

    /**
     * Writes the pictures into {@code dir}: {@code field} per column along the axis and row from the axis (see
     * {@link Solver#gatherField}), {@code axis} the rows of {@link Solver#gather}, {@code residuals} pairs of
     * iteration and residual (fallen by).
     */
    static void write(
            final Path dir,
            final NozzleShape shape,
            final double[][][] field,
            final double[][] axis,
            final int ranks,
            final ExactQ1d exact,
            final List<double[]> residuals)
            throws IOException {
        Files.createDirectories(dir);
        final int cells = field.length;
        final double dx = (shape.end() - shape.start()) / cells;
        double rMax = 0;
        for (int i = 0; i <= 200; i++) {
            rMax = Math.max(rMax, shape.radius(shape.start() + (shape.end() - shape.start()) * i / 200));
        }
        final double sx = (WIDTH - 2.0 * MARGIN) / (shape.end() - shape.start());
        final double sr = Math.max(sx, 120 / rMax); // the radius stretched where the nozzle is slender
        final int height = (int) (2 * rMax * sr) + 2 * MARGIN + 40;
        final int axisY = MARGIN + (int) (rMax * sr);
        for (final Quantity q : FIELDS) {
            double lo = Double.MAX_VALUE;
            double hi = -Double.MAX_VALUE;
            for (final double[][] column : field) {
                for (final double[] c : column) {
                    final double v = q.of().applyAsDouble(c);
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
            final BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
            final Graphics2D g = canvas(image);
            // Cells edge to edge, without the hairlines antialiasing would leave between them.
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_OFF);
            for (int i = 0; i < cells; i++) {
                final double xl = shape.start() + i * dx;
                final double xr = xl + dx;
                final double rl = shape.radius(xl);
                final double rr = shape.radius(xr);
                final int rows = field[i].length;
                for (int k = 0; k < rows; k++) {
                    g.setColor(color((q.of().applyAsDouble(field[i][k]) - lo) / Math.max(1e-300, hi - lo)));
                    for (final int side : new int[] {1, -1}) { // the section, both sides of the axis
                        final Polygon cell = new Polygon();
                        cell.addPoint(px(xl, shape, sx), axisY - side * (int) Math.round(rl * k / rows * sr));
                        cell.addPoint(px(xr, shape, sx) + 1, axisY - side * (int) Math.round(rr * k / rows * sr));
                        cell.addPoint(px(xr, shape, sx) + 1, axisY - side * (int) Math.round(rr * (k + 1) / rows * sr));
                        cell.addPoint(px(xl, shape, sx), axisY - side * (int) Math.round(rl * (k + 1) / rows * sr));
                        g.fill(cell);
                    }
                }
            }
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
            for (int r = 1; r < ranks; r++) { // where the blocks meet
                final double x = shape.start() + Solver.firstColumn(cells, r, ranks) * dx;
                final int y = (int) Math.round(shape.radius(x) * sr);
                g.drawLine(px(x, shape, sx), axisY - y, px(x, shape, sx), axisY + y);
            }
            g.setColor(Color.BLACK);
            g.setStroke(new BasicStroke(1.5f));
            final Path2D wall = new Path2D.Double();
            for (int i = 0; i <= 400; i++) {
                final double x = shape.start() + (shape.end() - shape.start()) * i / 400;
                final double y = axisY - shape.radius(x) * sr;
                if (i == 0) {
                    wall.moveTo(px(x, shape, sx), y);
                } else {
                    wall.lineTo(px(x, shape, sx), y);
                }
            }
            g.draw(wall);
            g.draw(AffineTransform.getTranslateInstance(0, 2 * axisY)
                    .createTransformedShape(
                            AffineTransform.getScaleInstance(1, -1).createTransformedShape(wall)));
            g.drawString(
                    q.title()
                            + String.format(
                                    Locale.ROOT,
                                    "   (%d ranks: their blocks meet at the dashed lines;"
                                            + " radius stretched %.1f times)",
                                    ranks,
                                    sr / sx),
                    MARGIN,
                    25);
            colorBar(g, lo, hi, height);
            g.dispose();
            ImageIO.write(image, "png", dir.resolve(q.file() + ".png").toFile());
        }
        profiles(dir, axis, exact);
        residualHistory(dir, residuals);
    }

    /** Mach number and pressure along the axis (the centreline) against the exact quasi-1D solution. */
    private static void profiles(final Path dir, final double[][] axis, final ExactQ1d exact) throws IOException {
        final int height = 520;
        final BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = canvas(image);
        final double x0 = axis[0][0];
        final double x1 = axis[axis.length - 1][0];
        double mMax = 0;
        for (final double[] r : axis) {
            mMax = Math.max(mMax, Math.max(r[5], exact.at(r[0]).mach()));
        }
        final double top = Math.max(mMax, 1) * 1.05;
        final int plotH = height - 2 * MARGIN;
        final int plotW = WIDTH - 2 * MARGIN;
        g.setColor(Color.BLACK);
        g.drawRect(MARGIN, MARGIN, plotW, plotH);
        g.drawString(
                "along the axis: Mach number (blue) and p / p0 (red); lines: exact quasi-1D solution,"
                        + " dots: computed",
                MARGIN,
                25);
        g.drawString(
                String.format(Locale.ROOT, "x from %.3g to %.3g; Mach from 0 to %.3g, p / p0 from 0 to 1", x0, x1, top),
                MARGIN,
                height - 20);
        for (final boolean mach : new boolean[] {true, false}) {
            final double scale = mach ? top : 1;
            g.setColor(mach ? new Color(0x1f77b4) : new Color(0xd62728));
            final Path2D line = new Path2D.Double();
            for (int i = 0; i <= 600; i++) {
                final double x = x0 + (x1 - x0) * i / 600;
                final ExactQ1d.State e = exact.at(x);
                final double v = mach ? e.mach() : e.pressure() / Gas.STAGNATION_PRESSURE;
                final double px = MARGIN + (x - x0) / (x1 - x0) * plotW;
                final double py = MARGIN + plotH - v / scale * plotH;
                if (i == 0) {
                    line.moveTo(px, py);
                } else {
                    line.lineTo(px, py);
                }
            }
            g.draw(line);
            for (final double[] r : axis) {
                final double v = mach ? r[5] : r[4] / Gas.STAGNATION_PRESSURE;
                final int px = (int) (MARGIN + (r[0] - x0) / (x1 - x0) * plotW);
                final int py = (int) (MARGIN + plotH - v / scale * plotH);
                g.fillOval(px - 2, py - 2, 4, 4);
            }
        }
        g.dispose();
        ImageIO.write(image, "png", dir.resolve("profiles.png").toFile());
    }

    /** The residual (fallen by, on a log scale) against the iterations. */
    private static void residualHistory(final Path dir, final List<double[]> residuals) throws IOException {
        final int height = 420;
        final BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = canvas(image);
        final int plotH = height - 2 * MARGIN;
        final int plotW = WIDTH - 2 * MARGIN;
        final double last = residuals.isEmpty() ? 1 : residuals.getLast()[0];
        double low = 0;
        for (final double[] r : residuals) {
            low = Math.min(low, Math.floor(Math.log10(Math.max(r[1], 1e-300))));
        }
        g.setColor(Color.BLACK);
        g.drawRect(MARGIN, MARGIN, plotW, plotH);
        g.drawString(
                String.format(
                        Locale.ROOT, "residual, fallen by (log scale, 1 to 1e%d), over %d iterations", (int) low, (int)
                                last),
                MARGIN,
                25);
        g.setColor(new Color(0x1f77b4));
        final Path2D line = new Path2D.Double();
        boolean begun = false;
        for (final double[] r : residuals) {
            final double px = MARGIN + r[0] / last * plotW;
            final double py = MARGIN + Math.log10(Math.max(r[1], 1e-300)) / low * plotH;
            if (!begun) {
                line.moveTo(px, py);
                begun = true;
            } else {
                line.lineTo(px, py);
            }
        }
        g.draw(line);
        g.dispose();
        ImageIO.write(image, "png", dir.resolve("residual.png").toFile());
    }

    private static Graphics2D canvas(final BufferedImage image) {
        final Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        g.setFont(FONT);
        return g;
    }

    private static int px(final double x, final NozzleShape shape, final double sx) {
        return MARGIN + (int) Math.round((x - shape.start()) * sx);
    }

    private static void colorBar(final Graphics2D g, final double lo, final double hi, final int height) {
        final int y = height - 30;
        final int w = 300;
        for (int i = 0; i < w; i++) {
            g.setColor(color((double) i / (w - 1)));
            g.fillRect(WIDTH - MARGIN - w + i, y, 1, 12);
        }
        g.setColor(Color.BLACK);
        g.drawString(String.format(Locale.ROOT, "%.4g", lo), WIDTH - MARGIN - w - 70, y + 11);
        g.drawString(String.format(Locale.ROOT, "%.4g", hi), WIDTH - MARGIN + 5, y + 11);
    }

    /** The map's colour at {@code t} from 0 to 1. */
    private static Color color(final double t) {
        final double at = Math.max(0, Math.min(1, t)) * (MAP.length - 1);
        final int i = Math.min(MAP.length - 2, (int) at);
        final double f = at - i;
        final int a = MAP[i];
        final int b = MAP[i + 1];
        return new Color(
                mix(a >> 16, b >> 16, f), mix((a >> 8) & 0xff, (b >> 8) & 0xff, f), mix(a & 0xff, b & 0xff, f));
    }

    private static int mix(final int a, final int b, final double f) {
        return (int) Math.round(a + (b - a) * f);
    }
}
