package org.troupe.apps.jem3d;

/**
 * The Kuhn split of a Cartesian cell into six tetrahedra, one per ordering p of the axes: v0 is the cell's lower
 * corner, v1 = v0 + e[p0], v2 = v1 + e[p1], v3 the opposite corner. Face f of a tetrahedron is the one opposite its
 * vertex f. Because every cell is split the same way the split is conforming, and a face's neighbour is always the
 * same (cell offset, type) pair: the whole mesh is described by the tables here, nothing per tetrahedron.
 */
final class Kuhn {
    static final int TYPES = 6;
    static final int FACES = 4;

    /** The axis orderings, one per type. */
    static final int[][] ORDER = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

    /** For type p and face f: the neighbour's cell offset (dx, dy, dz), its type and its face number. */
    static final int[][][] NEIGHBOUR = new int[TYPES][FACES][];

    /** Vertex v of type p in units of the cell: [p][v][axis]. */
    private static final int[][][] VERTICES = new int[TYPES][4][3];

    static {
        for (int p = 0; p < TYPES; p++) {
            for (int v = 0; v < 3; v++) {
                for (int s = 0; s < v; s++) {
                    VERTICES[p][v][ORDER[p][s]] = 1;
                }
            }
            VERTICES[p][3] = new int[] {1, 1, 1};
        }
        for (int p = 0; p < TYPES; p++) {
            for (int f = 0; f < FACES; f++) {
                NEIGHBOUR[p][f] = findNeighbour(p, f);
            }
        }
    }

    private Kuhn() {}

    /** Vertex v (0..3) of type p in units of the cell, relative to the cell's lower corner; not to be changed. */
    static int[] vertex(final int p, final int v) {
        return VERTICES[p][v];
    }

    /**
     * The axis of the cell face that face f of type p lies on, and on which side: +(axis+1) for the upper face,
     * -(axis+1) for the lower one, 0 for a face inside the cell.
     */
    static int cellSide(final int p, final int f) {
        if (f == 0) {
            return ORDER[p][0] + 1; // v1, v2, v3 all have coordinate 1 along p0
        }
        if (f == 3) {
            return -(ORDER[p][2] + 1); // v0, v1, v2 all have coordinate 0 along p2
        }
        return 0;
    }

    /** The face (as its three vertices in cell units, offset by the cell) matched against the neighbouring cells. */
    private static int[] findNeighbour(final int p, final int f) {
        long key = faceKey(p, f, 0, 0, 0);
        for (int dz = -1; dz <= 1; dz++) {
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    for (int q = 0; q < TYPES; q++) {
                        for (int g = 0; g < FACES; g++) {
                            boolean same = dx == 0 && dy == 0 && dz == 0 && q == p;
                            if (!same && faceKey(q, g, dx, dy, dz) == key) {
                                return new int[] {dx, dy, dz, q, g};
                            }
                        }
                    }
                }
            }
        }
        throw new AssertionError("face " + f + " of type " + p + " has no neighbour");
    }

    /** The face's vertex set, independent of vertex order: the sum of a unique code per vertex in a 4x4x4 box. */
    private static long faceKey(final int p, final int f, final int dx, final int dy, final int dz) {
        long key = 0;
        for (int v = 0; v < 4; v++) {
            if (v == f) {
                continue;
            }
            int[] x = vertex(p, v);
            int code = (x[0] + dx + 1) + 4 * ((x[1] + dy + 1) + 4 * (x[2] + dz + 1));
            key += 1L << code;
        }
        return key;
    }

    /** Vertex v of type p in the cell whose lower corner is (x0, y0, z0), with spacings h. */
    static double[] point(final int p, final int v, final double[] corner, final double[] h) {
        int[] x = vertex(p, v);
        return new double[] {corner[0] + x[0] * h[0], corner[1] + x[1] * h[1], corner[2] + x[2] * h[2]};
    }

    /**
     * The area vectors of type p's faces for cell spacings h: unit outward normal times area, as [f][axis]. They
     * sum to zero over the four faces.
     */
    static double[][] areaVectors(final int p, final double[] h) {
        double[] origin = {0, 0, 0};
        double[][] v = new double[4][];
        for (int i = 0; i < 4; i++) {
            v[i] = point(p, i, origin, h);
        }
        double[][] a = new double[FACES][];
        for (int f = 0; f < FACES; f++) {
            double[] q0 = v[(f + 1) % 4];
            double[] q1 = v[(f + 2) % 4];
            double[] q2 = v[(f + 3) % 4];
            double[] n = cross(minus(q1, q0), minus(q2, q0));
            for (int c = 0; c < 3; c++) {
                n[c] *= 0.5;
            }
            // Outward: away from the opposite vertex.
            if (dot(n, minus(v[f], q0)) > 0) {
                for (int c = 0; c < 3; c++) {
                    n[c] = -n[c];
                }
            }
            a[f] = n;
        }
        return a;
    }

    /** The volume of every tetrahedron of a cell with spacings h. */
    static double volume(final double[] h) {
        return h[0] * h[1] * h[2] / 6.0;
    }

    static double[] cross(final double[] a, final double[] b) {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }

    static double[] minus(final double[] a, final double[] b) {
        return new double[] {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    }

    static double dot(final double[] a, final double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    static double norm(final double[] a) {
        return Math.sqrt(dot(a, a));
    }
}
