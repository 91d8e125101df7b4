package org.troupe.apps.jem3d;

import java.io.Serializable;
import java.util.Locale;

/**
 * The mesh of the unit cube: m1 x m2 x m3 points, so (m1-1) x (m2-1) x (m3-1) Cartesian cells of six tetrahedra.
 * Coordinates are always computed from global indices, so every subdomain sees the same numbers.
 */
public record Mesh(int m1, int m2, int m3) implements Serializable {
    public Mesh {
        if (m1 < 2 || m2 < 2 || m3 < 2) {
            throw new IllegalArgumentException("mesh " + m1 + "x" + m2 + "x" + m3 + " is too small: each side needs "
                    + "at least 2 points (one cell)");
        }
        long tets = 6L * (m1 - 1) * (m2 - 1) * (m3 - 1);
        if (tets > Integer.MAX_VALUE / 3) {
            throw new IllegalArgumentException("mesh " + m1 + "x" + m2 + "x" + m3 + " has " + tets
                    + " tetrahedra, more than one solver can index; use a smaller mesh");
        }
    }

    /** Parses "41" (a cube) or "41x21x11". */
    public static Mesh parse(final String text) {
        String[] parts = text.trim().toLowerCase(Locale.ROOT).split("x");
        try {
            if (parts.length == 1) {
                int m = Integer.parseInt(parts[0].trim());
                return new Mesh(m, m, m);
            }
            if (parts.length == 3) {
                return new Mesh(
                        Integer.parseInt(parts[0].trim()),
                        Integer.parseInt(parts[1].trim()),
                        Integer.parseInt(parts[2].trim()));
            }
        } catch (NumberFormatException e) {
            // falls through to the usage error
        }
        throw new IllegalArgumentException(
                "mesh '" + text + "' is not a mesh size: write M (an M x M x M cube of " + "points) or M1xM2xM3");
    }

    /** Cells along axis d. */
    public int cells(final int d) {
        return (d == 0 ? m1 : d == 1 ? m2 : m3) - 1;
    }

    public long cellCount() {
        return (long) cells(0) * cells(1) * cells(2);
    }

    public long tetrahedra() {
        return Kuhn.TYPES * cellCount();
    }

    /** The cell spacings along each axis. */
    public double[] spacing() {
        return new double[] {1.0 / cells(0), 1.0 / cells(1), 1.0 / cells(2)};
    }

    public int[] points() {
        return new int[] {m1, m2, m3};
    }

    /** Border faces between the subdomains of a division: two triangles per cell square of each interface. */
    public long borderFaces(final int[] division) {
        long faces = 0;
        for (int d = 0; d < 3; d++) {
            faces += 2L * (division[d] - 1) * cells((d + 1) % 3) * cells((d + 2) % 3);
        }
        return faces;
    }

    /**
     * The time step of the leap-frog scheme: cfl times the smallest 4 V / P over the tetrahedra (P the sum of a
     * tetrahedron's face areas). Every tetrahedron of one type has the same shape, so six are enough.
     */
    public double timeStep(final double cfl) {
        double[] h = spacing();
        double volume = Kuhn.volume(h);
        double min = Double.MAX_VALUE;
        for (int p = 0; p < Kuhn.TYPES; p++) {
            double perimeter = 0;
            for (double[] a : Kuhn.areaVectors(p, h)) {
                perimeter += Kuhn.norm(a);
            }
            min = Math.min(min, 4 * volume / perimeter);
        }
        return cfl * min;
    }

    @Override
    public String toString() {
        return m1 + "x" + m2 + "x" + m3;
    }
}
