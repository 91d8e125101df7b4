package org.troupe.apps.nozzle;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A nozzle's wall radius along its axis, read from a small text file: one {@code x r} pair per line (blank lines
 * and {@code #} comments allowed), x increasing, r positive, at least four points; between them a monotone cubic
 * (Fritsch-Carlson), so the wall is smooth and has no wiggle the points do not have. The area of the quasi-1D model
 * is {@code pi r^2}.
 */
final class NozzleShape {
    /** The shape used without {@code --nozzle}: a resource beside this class. */
    static final String DEFAULT_RESOURCE = "default-nozzle.txt";

    private final double[] x;
    private final double[] r;
    private final double[] slope;

    private NozzleShape(final double[] x, final double[] r) {
        this.x = x;
        this.r = r;
        this.slope = monotoneSlopes(x, r);
    }

    /** The default nozzle. */
    static NozzleShape standard() {
        try (InputStream in = NozzleShape.class.getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(
                        "the default nozzle " + DEFAULT_RESOURCE + " is missing from the class" + " path");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), DEFAULT_RESOURCE);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the default nozzle: " + e.getMessage(), e);
        }
    }

    /** The nozzle of {@code file}; a clear {@link IllegalArgumentException} if it cannot be read or is not one. */
    static NozzleShape read(final Path file) {
        final String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("cannot read the nozzle file " + file + ": no such file");
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("cannot read the nozzle file " + file + ": it is not text (UTF-8)");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the nozzle file " + file + ": " + e);
        }
        return parse(text, file.toString());
    }

    static NozzleShape parse(final String text, final String name) {
        final List<double[]> points = new ArrayList<>();
        int lineNumber = 0;
        for (final String raw : text.split("\n", -1)) {
            lineNumber++;
            final String line = raw.replaceFirst("#.*", "").strip();
            if (line.isEmpty()) {
                continue;
            }
            final String[] f = line.split("[\\s,]+");
            if (f.length != 2) {
                throw new IllegalArgumentException(name + ", line " + lineNumber + ": expected two numbers, x and the"
                        + " radius r, not '" + raw.strip() + "'");
            }
            final double px;
            final double pr;
            try {
                px = Double.parseDouble(f[0]);
                pr = Double.parseDouble(f[1]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        name + ", line " + lineNumber + ": '" + raw.strip() + "' is not two" + " numbers");
            }
            if (!Double.isFinite(px) || !Double.isFinite(pr) || pr <= 0) {
                throw new IllegalArgumentException(name + ", line " + lineNumber + ": the radius must be a positive"
                        + " number (and x finite), not " + pr);
            }
            if (!points.isEmpty() && px <= points.getLast()[0]) {
                throw new IllegalArgumentException(name + ", line " + lineNumber + ": x must increase from line to"
                        + " line (" + px + " after " + points.getLast()[0] + ")");
            }
            points.add(new double[] {px, pr});
        }
        if (points.size() < 4) {
            throw new IllegalArgumentException(
                    name + ": a nozzle needs at least four points (x r), not " + points.size());
        }
        final double[] x = points.stream().mapToDouble(p -> p[0]).toArray();
        final double[] r = points.stream().mapToDouble(p -> p[1]).toArray();
        final NozzleShape shape = new NozzleShape(x, r);
        final double throat = shape.throat();
        final double narrowest = shape.radius(throat);
        final double margin = 1e-9 * narrowest;
        if (throat <= x[0]
                || throat >= x[x.length - 1]
                || narrowest > r[0] - margin
                || narrowest > r[r.length - 1] - margin) {
            throw new IllegalArgumentException(name + ": the narrowest section (x = " + throat + ") is at an end:"
                    + " a converging-diverging nozzle narrows, then widens");
        }
        final int samples = 2000;
        for (int k = 1; k <= samples; k++) { // one throat: no widening before it, no narrowing after
            final double a = x[0] + (x[x.length - 1] - x[0]) * (k - 1) / samples;
            final double b = x[0] + (x[x.length - 1] - x[0]) * k / samples;
            final double change = shape.radius(b) - shape.radius(a);
            if (b <= throat ? change > margin : a >= throat && change < -margin) {
                throw new IllegalArgumentException(String.format(
                        Locale.ROOT,
                        "%s: the nozzle %s again"
                                + " near x = %.4g, %s its throat at x = %.4g: a converging-diverging nozzle narrows to one"
                                + " throat, then widens",
                        name,
                        b <= throat ? "widens" : "narrows",
                        b,
                        b <= throat ? "before" : "after",
                        throat));
            }
        }
        return shape;
    }

    double start() {
        return x[0];
    }

    double end() {
        return x[x.length - 1];
    }

    double radius(final double at) {
        int i = 0;
        while (i < x.length - 2 && at > x[i + 1]) {
            i++;
        }
        final double h = x[i + 1] - x[i];
        final double t = Math.max(0, Math.min(1, (at - x[i]) / h));
        final double t2 = t * t;
        final double t3 = t2 * t;
        return (2 * t3 - 3 * t2 + 1) * r[i]
                + (t3 - 2 * t2 + t) * h * slope[i]
                + (-2 * t3 + 3 * t2) * r[i + 1]
                + (t3 - t2) * h * slope[i + 1];
    }

    double area(final double at) {
        final double rad = radius(at);
        return Math.PI * rad * rad;
    }

    /** Where the nozzle is narrowest (to a millionth of its length). */
    double throat() {
        double best = x[0];
        double bestR = Double.MAX_VALUE;
        final int n = 100_000;
        for (int k = 0; k <= n; k++) {
            final double at = x[0] + (x[x.length - 1] - x[0]) * k / n;
            final double rad = radius(at);
            if (rad < bestR) {
                bestR = rad;
                best = at;
            }
        }
        return best;
    }

    /** Fritsch-Carlson slopes: a cubic between the points that keeps their monotonicity. */
    private static double[] monotoneSlopes(final double[] x, final double[] y) {
        final int n = x.length;
        final double[] d = new double[n - 1];
        for (int i = 0; i < n - 1; i++) {
            d[i] = (y[i + 1] - y[i]) / (x[i + 1] - x[i]);
        }
        final double[] m = new double[n];
        m[0] = d[0];
        m[n - 1] = d[n - 2];
        for (int i = 1; i < n - 1; i++) {
            m[i] = d[i - 1] * d[i] <= 0 ? 0 : (d[i - 1] + d[i]) / 2;
        }
        for (int i = 0; i < n - 1; i++) {
            if (d[i] == 0) {
                m[i] = 0;
                m[i + 1] = 0;
                continue;
            }
            final double a = m[i] / d[i];
            final double b = m[i + 1] / d[i];
            final double s = a * a + b * b;
            if (s > 9) {
                final double t = 3 / Math.sqrt(s);
                m[i] = t * a * d[i];
                m[i + 1] = t * b * d[i];
            }
        }
        return m;
    }
}
