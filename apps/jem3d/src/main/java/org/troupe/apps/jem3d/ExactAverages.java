package org.troupe.apps.jem3d;

/**
 * The exact averages of a cavity mode over a block's tetrahedra, by the 4-point degree-2 rule (barycentric
 * (A, B, B, B) and its permutations). The modes are products of one sine or cosine per axis, and along an axis a
 * quadrature point of a tetrahedron of type p sits at (cell index + w) h, where w takes one of six values (the
 * vertices' unit coordinates along that axis sum to 1, 2 or 3, and the point's own vertex has 0 or 1). So the
 * sines and cosines are tabulated once per axis, and an average costs a few multiplications, no trigonometry.
 */
final class ExactAverages {
    private static final double QA = 0.5854101966249685;
    private static final double QB = 0.1381966011250105;
    private static final int OFFSETS = 6;

    private final int[] lo;
    /** Per axis: sin and cos of k pi x at (global index + w) h, at [OFFSETS * local index + offset]. */
    private final double[][] sin = new double[3][];

    private final double[][] cos = new double[3][];
    /** Per type, quadrature point and axis: the offset index into the tables. */
    private final int[][][] offset = new int[Kuhn.TYPES][4][3];

    ExactAverages(final CavityMode mode, final Mesh mesh, final Block block) {
        this.lo = block.lo().clone();
        double[] h = mesh.spacing();
        int[] k = {mode.kx(), mode.ky(), mode.kz()};
        for (int c = 0; c < 3; c++) {
            int n = block.cells(c);
            sin[c] = new double[OFFSETS * n];
            cos[c] = new double[OFFSETS * n];
            for (int i = 0; i < n; i++) {
                for (int o = 0; o < OFFSETS; o++) {
                    double w = QB * (o / 2 + 1) + (QA - QB) * (o % 2);
                    double x = Math.PI * k[c] * (lo[c] + i + w) * h[c];
                    sin[c][OFFSETS * i + o] = Math.sin(x);
                    cos[c][OFFSETS * i + o] = Math.cos(x);
                }
            }
        }
        for (int p = 0; p < Kuhn.TYPES; p++) {
            for (int c = 0; c < 3; c++) {
                int sum = 0;
                for (int v = 0; v < 4; v++) {
                    sum += Kuhn.vertex(p, v)[c];
                }
                for (int q = 0; q < 4; q++) {
                    offset[p][q][c] = 2 * (sum - 1) + Kuhn.vertex(p, q)[c];
                }
            }
        }
    }

    /**
     * The average of E (electric) or H over tetrahedron p of local cell (i, j, k), into out[0..2]; the amplitudes
     * are the mode's at the time wanted ({@link CavityMode#amplitudeE}, {@link CavityMode#amplitudeH}).
     */
    void average(
            final int i,
            final int j,
            final int k,
            final int p,
            final double[] amplitude,
            final boolean electric,
            final double[] out) {
        double x = 0;
        double y = 0;
        double z = 0;
        for (int q = 0; q < 4; q++) {
            int[] o = offset[p][q];
            int a = OFFSETS * i + o[0];
            int b = OFFSETS * j + o[1];
            int c = OFFSETS * k + o[2];
            double sx = sin[0][a];
            double cx = cos[0][a];
            double sy = sin[1][b];
            double cy = cos[1][b];
            double sz = sin[2][c];
            double cz = cos[2][c];
            if (electric) {
                x += cx * sy * sz;
                y += sx * cy * sz;
                z += sx * sy * cz;
            } else {
                x += sx * cy * cz;
                y += cx * sy * cz;
                z += cx * cy * sz;
            }
        }
        out[0] = 0.25 * amplitude[0] * x;
        out[1] = 0.25 * amplitude[1] * y;
        out[2] = 0.25 * amplitude[2] * z;
    }
}
