package org.troupe.apps.jem3d;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG plots of {@code --plot DIR}: energy over time, error over time, and a colour map of |E| on the mid-plane
 * in z with the subdomain borders drawn.
 */
final class Plots {
    static final String ENERGY = "energy.png";
    static final String ERROR = "error.png";
    static final String SLICE = "slice-E.png";

    private Plots() {}

    /** Writes the three plots into {@code dir} (made if missing) and returns their paths. */
    static List<Path> write(final Jem3dReport report, final Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        written.add(energy(report, dir.resolve(ENERGY)));
        written.add(error(report, dir.resolve(ERROR)));
        if (report.sliceE() != null) {
            written.add(slice(report, dir.resolve(SLICE)));
        }
        return written;
    }

    private static Path energy(final Jem3dReport report, final Path file) throws IOException {
        double[] energies = report.energies();
        double[] t = new double[energies.length];
        double[] drift = new double[energies.length];
        for (int n = 0; n < energies.length; n++) {
            t[n] = (n + 1) * report.dt();
            drift[n] = (energies[n] - energies[0]) / energies[0];
        }
        // a drift of about 1e-14 gets one tick label on a plain axis: the values are plotted in units of its power
        // of ten, which the axis title says
        double largest = Arrays.stream(drift).map(Math::abs).max().orElse(0);
        int exponent = largest > 0 ? (int) Math.floor(Math.log10(largest)) : 0;
        double unit = Math.pow(10, exponent);
        for (int n = 0; n < drift.length; n++) {
            drift[n] /= unit;
        }
        XYChart chart = new XYChartBuilder()
                .width(800)
                .height(500)
                .title(String.format(
                        Locale.ROOT, "Discrete energy, mesh %s (drift %.1e)", report.mesh(), report.energyDrift()))
                .xAxisTitle("t")
                .yAxisTitle("relative change of W since step 1" + (exponent == 0 ? "" : " (x 1e" + exponent + ")"))
                .build();
        chart.getStyler().setLegendVisible(!report.events().isEmpty());
        chart.getStyler().setXAxisDecimalPattern("0.###");
        chart.getStyler().setYAxisDecimalPattern("0.##");
        chart.addSeries("relative energy change", t, drift).setMarker(SeriesMarkers.NONE);
        // each loss, restart and growth as a vertical line at its step
        double lo = Arrays.stream(drift).min().orElse(0);
        double hi = Arrays.stream(drift).max().orElse(0);
        double pad = Math.max(1e-3, (hi - lo) * 0.05);
        List<RunEvent> events = report.events();
        for (int i = 0; i < events.size(); i++) {
            RunEvent e = events.get(i);
            double at = e.step() * report.dt();
            chart.addSeries(
                            (i + 1) + ". " + e.kind() + " (step " + e.step() + ")",
                            new double[] {at, at},
                            new double[] {lo - pad, hi + pad})
                    .setMarker(SeriesMarkers.NONE)
                    .setLineColor(
                            switch (e.kind()) {
                                case LOST -> Color.RED;
                                case RESTARTED -> Color.ORANGE;
                                case GREW, RESUMED -> Color.GRAY;
                            });
        }
        return save(chart, file);
    }

    private static Path error(final Jem3dReport report, final Path file) throws IOException {
        double[][] rows = withFinal(report);
        double[] t = new double[rows.length];
        double[] e = new double[rows.length];
        double[] h = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            t[i] = rows[i][0] * report.dt();
            e[i] = rows[i][1];
            h[i] = rows[i][2];
        }
        XYChart chart = new XYChartBuilder()
                .width(800)
                .height(500)
                .title("L2 error against the exact mode, mesh " + report.mesh())
                .xAxisTitle("t")
                .yAxisTitle("L2 error")
                .build();
        chart.getStyler().setXAxisDecimalPattern("0.###");
        chart.getStyler().setYAxisDecimalPattern("0.0E0");
        if (rows.length > 0) {
            chart.addSeries("E", t, e);
            chart.addSeries("H (half steps)", t, h);
        }
        return save(chart, file);
    }

    /** The sampled errors, ending with the final ones if the last sample was earlier. */
    private static double[][] withFinal(final Jem3dReport report) {
        double[][] rows = report.errors();
        if (rows.length > 0 && rows[rows.length - 1][0] == report.steps()) {
            return rows;
        }
        double[][] all = Arrays.copyOf(rows, rows.length + 1);
        all[rows.length] = new double[] {report.steps(), report.errorE(), report.errorH()};
        return all;
    }

    private static Path save(final XYChart chart, final Path file) throws IOException {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }

    /** |E| per cell, blue to red, each cell a square of pixels; subdomain borders as white lines. */
    private static Path slice(final Jem3dReport report, final Path file) throws IOException {
        double[][] values = report.sliceE();
        int ny = values.length;
        int nx = values[0].length;
        int scale = Math.max(2, Math.min(16, 560 / Math.max(nx, ny)));
        int left = 70;
        int top = 50;
        int width = nx * scale;
        int height = ny * scale;
        int bar = left + width + 30; // the colour bar's left edge
        BufferedImage image =
                new BufferedImage(Math.max(620, bar + 110), top + height + 60, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        double max = 0;
        for (double[] row : values) {
            for (double v : row) {
                max = Math.max(max, v);
            }
        }
        for (int j = 0; j < ny; j++) {
            for (int i = 0; i < nx; i++) {
                g.setColor(viridis(max == 0 ? 0 : values[j][i] / max));
                // y grows upwards in the picture
                g.fillRect(left + i * scale, top + (ny - 1 - j) * scale, scale, scale);
            }
        }
        g.setColor(Color.WHITE);
        g.setStroke(new BasicStroke(2));
        for (Block b : Block.divide(report.mesh(), report.division())) {
            if (b.position()[2] == 0) {
                int x0 = left + b.lo()[0] * scale;
                int y0 = top + (ny - b.hi()[1]) * scale;
                g.drawRect(x0, y0, b.cells(0) * scale, b.cells(1) * scale);
            }
        }
        // axes: the unit square's coordinates, ticks every quarter
        Font font = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
        g.setFont(font);
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1));
        g.drawRect(left, top, width, height);
        for (int q = 0; q <= 4; q++) {
            String label = String.format(Locale.ROOT, "%.2f", q / 4.0);
            int x = left + q * width / 4;
            int y = top + height - q * height / 4;
            g.drawLine(x, top + height, x, top + height + 5);
            g.drawString(label, x - g.getFontMetrics().stringWidth(label) / 2, top + height + 20);
            g.drawLine(left - 5, y, left, y);
            g.drawString(label, left - 9 - g.getFontMetrics().stringWidth(label), y + 5);
        }
        g.drawString("x", left + width / 2 - 3, top + height + 40);
        g.drawString("y", left - 55, top + height / 2 + 5);
        // the colour bar, with its scale
        int barWidth = 18;
        for (int y = 0; y < height; y++) {
            g.setColor(viridis(1 - (double) y / Math.max(1, height - 1)));
            g.fillRect(bar, top + y, barWidth, 1);
        }
        g.setColor(Color.BLACK);
        g.drawRect(bar, top, barWidth, height);
        for (int q = 0; q <= 4; q++) {
            int y = top + height - q * height / 4;
            g.drawLine(bar + barWidth, y, bar + barWidth + 5, y);
            g.drawString(String.format(Locale.ROOT, "%.3g", max * q / 4), bar + barWidth + 8, y + 5);
        }
        g.drawString("|E|", bar, top - 8);
        g.setFont(font.deriveFont(Font.BOLD, 14f));
        g.drawString(
                String.format(
                        Locale.ROOT,
                        "|E| at z = %.3f, t = %.4f, subdomains %s",
                        (report.mesh().cells(2) / 2 + 0.5) / report.mesh().cells(2),
                        report.time(),
                        Division.format(report.division())),
                left,
                top - 22);
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
        return file;
    }

    /** Viridis' colours at nine evenly spaced points: a perceptually uniform map, readable in grey too. */
    private static final int[][] VIRIDIS = {
        {68, 1, 84},
        {72, 40, 120},
        {62, 74, 137},
        {49, 104, 142},
        {38, 130, 142},
        {31, 158, 137},
        {53, 183, 121},
        {110, 206, 88},
        {253, 231, 37}
    };

    /** The viridis colour of {@code x} in [0, 1], interpolated between its points. */
    private static Color viridis(final double x) {
        double v = Math.max(0, Math.min(1, x)) * (VIRIDIS.length - 1);
        int i = Math.min(VIRIDIS.length - 2, (int) v);
        double f = v - i;
        int[] c = new int[3];
        for (int k = 0; k < 3; k++) {
            c[k] = (int) Math.round(VIRIDIS[i][k] + f * (VIRIDIS[i + 1][k] - VIRIDIS[i][k]));
        }
        return new Color(c[0], c[1], c[2]);
    }
}
