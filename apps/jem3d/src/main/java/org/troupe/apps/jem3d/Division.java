package org.troupe.apps.jem3d;

import java.util.Arrays;

/**
 * How the cube is cut into a x b x c subdomains. For a given number of nodes the best division is the one with the
 * fewest border faces (for an m-point cube, 2 (a + b + c - 3) (m - 1)^2: Proposition 3.2 of the Jem3D paper), so 16
 * nodes give (2, 2, 4) rather than (1, 1, 16). Ties go to the lexicographically smallest (a, b, c).
 */
public final class Division {
    private Division() {}

    /** The best division of the mesh into exactly {@code nodes} blocks, or null if none fits (too few cells). */
    public static int[] best(final Mesh mesh, final int nodes) {
        int[] best = null;
        long bestFaces = Long.MAX_VALUE;
        for (int a = 1; a <= nodes; a++) {
            if (nodes % a != 0 || a > mesh.cells(0)) {
                continue;
            }
            for (int b = 1; b <= nodes / a; b++) {
                if ((nodes / a) % b != 0 || b > mesh.cells(1)) {
                    continue;
                }
                int c = nodes / a / b;
                if (c > mesh.cells(2)) {
                    continue;
                }
                int[] division = {a, b, c};
                long faces = mesh.borderFaces(division);
                if (faces < bestFaces) {
                    best = division;
                    bestFaces = faces;
                }
            }
        }
        return best;
    }

    /** Parses "2x2x4" or "2,2,4". */
    public static int[] parse(final String text) {
        String[] parts = text.trim().split("[x,]");
        if (parts.length == 3) {
            try {
                int[] d = new int[3];
                for (int i = 0; i < 3; i++) {
                    d[i] = Integer.parseInt(parts[i].trim());
                    if (d[i] < 1) {
                        throw new NumberFormatException();
                    }
                }
                return d;
            } catch (NumberFormatException e) {
                // falls through
            }
        }
        throw new IllegalArgumentException(
                "division '" + text + "' is not a division: write AxBxC with positive " + "integers, like 2x2x4");
    }

    public static String format(final int[] division) {
        return division[0] + "x" + division[1] + "x" + division[2];
    }

    static String describe(final Mesh mesh, final int[] division) {
        return format(division) + " (" + mesh.borderFaces(division) + " border faces)"
                + (Arrays.equals(division, new int[] {1, 1, 1}) ? ", sequential" : "");
    }
}
