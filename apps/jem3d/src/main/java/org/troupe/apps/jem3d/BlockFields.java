package org.troupe.apps.jem3d;

import java.util.List;

/** The E and H of one block's tetrahedra, in the block's local order (z slowest, then y, x, type). */
public record BlockFields(Block block, double[] e, double[] h) {
    /** Block {@code b}'s part of the whole mesh's fields (as {@link #assemble} makes them), in the block's order. */
    public static BlockFields of(final Mesh mesh, final Block b, final double[] e, final double[] h) {
        int[] n = {mesh.cells(0), mesh.cells(1), mesh.cells(2)};
        int row = 3 * Kuhn.TYPES;
        int length = row * b.cells(0);
        double[] partE = new double[length * b.cells(1) * b.cells(2)];
        double[] partH = new double[partE.length];
        int to = 0;
        for (int k = b.lo()[2]; k < b.hi()[2]; k++) {
            for (int j = b.lo()[1]; j < b.hi()[1]; j++) {
                int from = row * (b.lo()[0] + n[0] * (j + n[1] * k));
                System.arraycopy(e, from, partE, to, length);
                System.arraycopy(h, from, partH, to, length);
                to += length;
            }
        }
        return new BlockFields(b, partE, partH);
    }

    /**
     * The fields of the whole mesh from its blocks', in global order (z slowest, then y, x, type): what a divided
     * run is compared with the sequential one by.
     */
    public static double[][] assemble(final Mesh mesh, final List<BlockFields> parts) {
        int[] n = {mesh.cells(0), mesh.cells(1), mesh.cells(2)};
        double[] e = new double[(int) (3 * mesh.tetrahedra())];
        double[] h = new double[e.length];
        int row = 3 * Kuhn.TYPES;
        for (BlockFields part : parts) {
            Block b = part.block();
            int from = 0;
            for (int k = b.lo()[2]; k < b.hi()[2]; k++) {
                for (int j = b.lo()[1]; j < b.hi()[1]; j++) {
                    int to = row * (b.lo()[0] + n[0] * (j + n[1] * k));
                    int length = row * b.cells(0);
                    System.arraycopy(part.e(), from, e, to, length);
                    System.arraycopy(part.h(), from, h, to, length);
                    from += length;
                }
            }
        }
        return new double[][] {e, h};
    }
}
