package org.troupe.apps.jem3d;

import java.util.Arrays;
import java.util.Locale;

/**
 * The numerical kernel of one subdomain: the leap-frog finite-volume scheme on the block's tetrahedra, with no
 * middleware in it. One E and one H vector per tetrahedron, stored interleaved (x, y, z) in arrays padded by one
 * layer of ghost cells all around. A tetrahedron's neighbour across face f is always the same (cell offset, type)
 * pair ({@link Kuhn}), so it is found by adding a constant to its index: the mesh costs no memory per tetrahedron,
 * and the inner loops are straight strides the JIT can check once per row.
 *
 * <p>Ghost tetrahedra hold what a face's other side needs: across an interface, the neighbouring subdomain's values
 * (see {@link #pack} and {@link #unpack}); across a wall, the perfect conductor's mirror of the tetrahedron inside
 * (E negated, H equal). Every tetrahedron sums its four faces in the same order whatever the division, so a
 * divided run gives bit-for-bit the fields of the sequential one.
 */
final class BlockSolver {
    /** E update coefficients, per type p and face f: dt / (2 V) times the area vector (x, y, z). */
    private final double[][] coefficients = new double[Kuhn.TYPES][];
    /** Per type p and face f: the neighbour's index minus the tetrahedron's, in array slots (3 per tetrahedron). */
    private final int[][] offsets = new int[Kuhn.TYPES][Kuhn.FACES];

    private final Mesh mesh;
    private final Block block;
    private final double dt;
    private final double halfVolume;
    private final int nx;
    private final int ny;
    private final int nz;
    private final int px;
    private final int py;
    private final double[] e;
    private final double[] h;
    /** Per side (axis * 2, +1 for the upper one): slots of the tetrahedra whose values go to that neighbour. */
    private final int[][] sendSlots = new int[6][];
    /** Per side: the ghost slots that the neighbour's values fill, in the order it sends them. */
    private final int[][] ghostSlots = new int[6][];
    /** Per wall side: pairs (slot inside, its mirror ghost slot). */
    private final int[][] wallPairs = new int[6][];
    /** The whole block as a box {i0, i1, j0, j1, k0, k1}. */
    private final int[] whole;
    /** The cells that need no neighbour's value (empty if there are none), and the boxes of the rest. */
    private final int[][] inner;

    private final int[][] shell;

    BlockSolver(final Mesh mesh, final Block block, final double dt) {
        this.mesh = mesh;
        this.block = block;
        this.dt = dt;
        double[] spacing = mesh.spacing();
        double volume = Kuhn.volume(spacing);
        this.halfVolume = volume / 2;
        nx = block.cells(0);
        ny = block.cells(1);
        nz = block.cells(2);
        px = nx + 2;
        py = ny + 2;
        long slots = 3L * Kuhn.TYPES * px * py * (nz + 2);
        checkHeap(block, 2 * 8 * slots);
        e = new double[(int) slots];
        h = new double[(int) slots];
        double scale = dt / (2 * volume);
        for (int p = 0; p < Kuhn.TYPES; p++) {
            double[][] a = Kuhn.areaVectors(p, spacing);
            coefficients[p] = new double[3 * Kuhn.FACES];
            for (int f = 0; f < Kuhn.FACES; f++) {
                for (int c = 0; c < 3; c++) {
                    coefficients[p][3 * f + c] = scale * a[f][c];
                }
                int[] n = Kuhn.NEIGHBOUR[p][f];
                offsets[p][f] = 3 * (Kuhn.TYPES * (n[0] + px * (n[1] + py * n[2])) + n[3] - p);
            }
        }
        whole = new int[] {0, nx, 0, ny, 0, nz};
        int[] core = new int[6];
        boolean hasInner = true;
        for (int side = 0; side < 6; side++) {
            int n = block.cells(side / 2);
            boolean neighbour = block.neighbour(side) >= 0;
            core[side] = side % 2 == 0 ? (neighbour ? 1 : 0) : (neighbour ? n - 1 : n);
            hasInner &= side % 2 == 0 || core[side - 1] < core[side];
        }
        if (hasInner) {
            inner = new int[][] {core};
            shell = Arrays.stream(new int[][] {
                        {0, nx, 0, ny, 0, core[4]},
                        {0, nx, 0, ny, core[5], nz},
                        {0, nx, 0, core[2], core[4], core[5]},
                        {0, nx, core[3], ny, core[4], core[5]},
                        {0, core[0], core[2], core[3], core[4], core[5]},
                        {core[1], nx, core[2], core[3], core[4], core[5]}
                    })
                    .filter(b -> b[0] < b[1] && b[2] < b[3] && b[4] < b[5])
                    .toArray(int[][]::new);
        } else {
            inner = new int[0][];
            shell = new int[][] {whole};
        }
        for (int side = 0; side < 6; side++) {
            int d = side / 2;
            boolean upper = side % 2 == 1;
            int inside = upper ? block.cells(d) - 1 : 0;
            int outside = upper ? block.cells(d) : -1;
            sendSlots[side] = slotsOnPlane(d, inside, upper);
            ghostSlots[side] = slotsOnPlane(d, outside, !upper);
            if (block.neighbour(side) < 0) {
                int[] in = sendSlots[side];
                int[] pairs = new int[2 * in.length];
                for (int i = 0; i < in.length; i++) {
                    int p = (in[i] / 3) % Kuhn.TYPES;
                    pairs[2 * i] = in[i];
                    pairs[2 * i + 1] = in[i] + offsets[p][upper ? 0 : 3];
                }
                wallPairs[side] = pairs;
            }
        }
    }

    /** Refuses a block whose fields this JVM's heap cannot hold, with the figures and what to do. */
    private static void checkHeap(final Block block, final long bytes) {
        Runtime rt = Runtime.getRuntime();
        long free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (bytes > Integer.MAX_VALUE * 8L || bytes > free) {
            throw new IllegalStateException(String.format(
                    Locale.ROOT,
                    "%s needs %,d MB of heap for its "
                            + "fields and its JVM has %,d MB free (of -Xmx %,d MB): use more nodes, or give the node JVMs more "
                            + "heap (descriptors/local.xml: JAVA_OPTS=-Dheap=4g)",
                    block,
                    bytes >> 20,
                    free >> 20,
                    rt.maxMemory() >> 20));
        }
    }

    /** The slot of cell (i, j, k) of this block (-1 and n are ghosts), type p. */
    private int slot(final int i, final int j, final int k, final int p) {
        return 3 * (Kuhn.TYPES * ((i + 1) + px * ((j + 1) + py * (k + 1))) + p);
    }

    /**
     * The slots of the tetrahedra of the cell layer at local coordinate {@code at} along axis d whose face lies on
     * the layer's upper (or lower) cell face: the canonical order of an interface, the same on both sides (the
     * other two axes, lower axis fastest, then the types in order).
     */
    private int[] slotsOnPlane(final int d, final int at, final boolean upper) {
        int u = d == 0 ? 1 : 0;
        int v = d == 2 ? 1 : 2;
        int faceSide = upper ? d + 1 : -(d + 1);
        int[] types = new int[2];
        int found = 0;
        for (int p = 0; p < Kuhn.TYPES; p++) {
            for (int f = 0; f < Kuhn.FACES; f++) {
                if (Kuhn.cellSide(p, f) == faceSide) {
                    types[found++] = p;
                }
            }
        }
        int[] slots = new int[2 * block.cells(u) * block.cells(v)];
        int n = 0;
        int[] c = new int[3];
        c[d] = at;
        for (int b = 0; b < block.cells(v); b++) {
            for (int a = 0; a < block.cells(u); a++) {
                c[u] = a;
                c[v] = b;
                for (int p : types) {
                    slots[n++] = slot(c[0], c[1], c[2], p);
                }
            }
        }
        return slots;
    }

    Block block() {
        return block;
    }

    double dt() {
        return dt;
    }

    /** E^0 and H^(1/2) from the mode's exact cell averages. */
    void initialise(final CavityMode mode) {
        ExactAverages exact = new ExactAverages(mode, mesh, block);
        double[] initialE = mode.amplitudeE(0);
        double[] initialH = mode.amplitudeH(dt / 2);
        double[] out = new double[3];
        forEachTetrahedron((i, j, k, p, slot) -> {
            exact.average(i, j, k, p, initialE, true, out);
            System.arraycopy(out, 0, e, slot, 3);
            exact.average(i, j, k, p, initialH, false, out);
            System.arraycopy(out, 0, h, slot, 3);
        });
    }

    /** Sums over this block of V |E - exact|^2 at step n's time and V |H - exact|^2 at the half step after. */
    double[] errorSquares(final CavityMode mode, final int step) {
        ExactAverages exact = new ExactAverages(mode, mesh, block);
        double[] amplitudeE = mode.amplitudeE(step * dt);
        double[] amplitudeH = mode.amplitudeH((step + 0.5) * dt);
        double[] out = new double[3];
        double[] sums = new double[2];
        double volume = 2 * halfVolume;
        forEachTetrahedron((i, j, k, p, slot) -> {
            exact.average(i, j, k, p, amplitudeE, true, out);
            sums[0] += volume * squaredDistance(e, slot, out);
            exact.average(i, j, k, p, amplitudeH, false, out);
            sums[1] += volume * squaredDistance(h, slot, out);
        });
        return sums;
    }

    private static double squaredDistance(final double[] field, final int slot, final double[] exact) {
        double dx = field[slot] - exact[0];
        double dy = field[slot + 1] - exact[1];
        double dz = field[slot + 2] - exact[2];
        return dx * dx + dy * dy + dz * dz;
    }

    private interface TetrahedronVisitor {
        void visit(int i, int j, int k, int type, int slot);
    }

    /** Visits the block's own tetrahedra: local cell, type, and slot in the field arrays. */
    private void forEachTetrahedron(final TetrahedronVisitor visitor) {
        for (int k = 0; k < nz; k++) {
            for (int j = 0; j < ny; j++) {
                for (int i = 0; i < nx; i++) {
                    for (int p = 0; p < Kuhn.TYPES; p++) {
                        visitor.visit(i, j, k, p, slot(i, j, k, p));
                    }
                }
            }
        }
    }

    /** The values (E when electric, else H) of the tetrahedra on side s, in the interface's canonical order. */
    double[] pack(final boolean electric, final int side) {
        double[] field = electric ? e : h;
        int[] slots = sendSlots[side];
        double[] values = new double[3 * slots.length];
        for (int i = 0; i < slots.length; i++) {
            int s = slots[i];
            values[3 * i] = field[s];
            values[3 * i + 1] = field[s + 1];
            values[3 * i + 2] = field[s + 2];
        }
        return values;
    }

    /** Stores the neighbour's values across side s into the ghost tetrahedra. */
    void unpack(final boolean electric, final int side, final double[] values) {
        double[] field = electric ? e : h;
        int[] slots = ghostSlots[side];
        if (values.length != 3 * slots.length) {
            throw new IllegalStateException(
                    block + " expected " + 3 * slots.length + " values across side " + side + ", got " + values.length);
        }
        for (int i = 0; i < slots.length; i++) {
            int s = slots[i];
            field[s] = values[3 * i];
            field[s + 1] = values[3 * i + 1];
            field[s + 2] = values[3 * i + 2];
        }
    }

    /** The number of values exchanged across side s (0 at a wall). */
    int borderValues(final int side) {
        return block.neighbour(side) < 0 ? 0 : 3 * sendSlots[side].length;
    }

    /**
     * The wall ghosts of E (electric) or H: the mirror of a perfect conductor negates E and keeps H. Multiplying by
     * -1 or 1 is exact, so the ghosts hold the very values a mirror would.
     */
    void mirror(final boolean electric) {
        double[] field = electric ? e : h;
        double sign = electric ? -1 : 1;
        for (int[] pairs : wallPairs) {
            if (pairs != null) {
                for (int i = 0; i < pairs.length; i += 2) {
                    int in = pairs[i];
                    int out = pairs[i + 1];
                    field[out] = sign * field[in];
                    field[out + 1] = sign * field[in + 1];
                    field[out + 2] = sign * field[in + 2];
                }
            }
        }
    }

    /**
     * The update of the cells of {@code box} that reads E's ghosts (that is, updates H; electric) or H's; returns
     * their share of the energy after an H update, 0 after an E update.
     */
    double update(final boolean readsElectric, final int[] box) {
        if (readsElectric) {
            return updateH(box);
        }
        updateE(box);
        return 0;
    }

    /**
     * E^(n+1) = E^n + dt / (2 V) sum_f a_f x H_k^(n+1/2) on the cells of {@code box} ({i0, i1, j0, j1, k0, k1},
     * local, half-open); the H ghosts must be filled.
     */
    void updateE(final int[] box) {
        final double[] e = this.e;
        final double[] h = this.h;
        final int nx = box[1] - box[0];
        for (int k = box[4]; k < box[5]; k++) {
            for (int j = box[2]; j < box[3]; j++) {
                int row = slot(box[0], j, k, 0);
                for (int p = 0; p < Kuhn.TYPES; p++) {
                    double[] c = coefficients[p];
                    double a0x = c[0], a0y = c[1], a0z = c[2];
                    double a1x = c[3], a1y = c[4], a1z = c[5];
                    double a2x = c[6], a2y = c[7], a2z = c[8];
                    double a3x = c[9], a3y = c[10], a3z = c[11];
                    int o0 = offsets[p][0], o1 = offsets[p][1], o2 = offsets[p][2], o3 = offsets[p][3];
                    int start = row + 3 * p;
                    int end = start + 3 * Kuhn.TYPES * nx;
                    for (int t = start; t < end; t += 3 * Kuhn.TYPES) {
                        int n = t + o0;
                        double hx = h[n], hy = h[n + 1], hz = h[n + 2];
                        double sx = a0y * hz - a0z * hy;
                        double sy = a0z * hx - a0x * hz;
                        double sz = a0x * hy - a0y * hx;
                        n = t + o1;
                        hx = h[n];
                        hy = h[n + 1];
                        hz = h[n + 2];
                        sx += a1y * hz - a1z * hy;
                        sy += a1z * hx - a1x * hz;
                        sz += a1x * hy - a1y * hx;
                        n = t + o2;
                        hx = h[n];
                        hy = h[n + 1];
                        hz = h[n + 2];
                        sx += a2y * hz - a2z * hy;
                        sy += a2z * hx - a2x * hz;
                        sz += a2x * hy - a2y * hx;
                        n = t + o3;
                        hx = h[n];
                        hy = h[n + 1];
                        hz = h[n + 2];
                        sx += a3y * hz - a3z * hy;
                        sy += a3z * hx - a3x * hz;
                        sz += a3x * hy - a3y * hx;
                        e[t] += sx;
                        e[t + 1] += sy;
                        e[t + 2] += sz;
                    }
                }
            }
        }
    }

    /**
     * H^(n+3/2) = H^(n+1/2) - dt / (2 V) sum_f a_f x E_k^(n+1) on the cells of {@code box}; the E ghosts must be
     * filled. Returns their share of the discrete energy (1/2) sum V (|E^(n+1)|^2 + H^(n+1/2) . H^(n+3/2)). The
     * loop is {@link #updateE(int[])}'s
     * with E and H swapped, written out again rather than shared: it also sums the energy, in the same pass over
     * memory, and each copy stays a plain loop over constants that the JIT keeps in registers.
     */
    double updateH(final int[] box) {
        final double[] e = this.e;
        final double[] h = this.h;
        final int nx = box[1] - box[0];
        double energy = 0;
        for (int k = box[4]; k < box[5]; k++) {
            for (int j = box[2]; j < box[3]; j++) {
                int row = slot(box[0], j, k, 0);
                for (int p = 0; p < Kuhn.TYPES; p++) {
                    double[] c = coefficients[p];
                    double a0x = c[0], a0y = c[1], a0z = c[2];
                    double a1x = c[3], a1y = c[4], a1z = c[5];
                    double a2x = c[6], a2y = c[7], a2z = c[8];
                    double a3x = c[9], a3y = c[10], a3z = c[11];
                    int o0 = offsets[p][0], o1 = offsets[p][1], o2 = offsets[p][2], o3 = offsets[p][3];
                    int start = row + 3 * p;
                    int end = start + 3 * Kuhn.TYPES * nx;
                    for (int t = start; t < end; t += 3 * Kuhn.TYPES) {
                        int n = t + o0;
                        double ex = e[n], ey = e[n + 1], ez = e[n + 2];
                        double sx = a0y * ez - a0z * ey;
                        double sy = a0z * ex - a0x * ez;
                        double sz = a0x * ey - a0y * ex;
                        n = t + o1;
                        ex = e[n];
                        ey = e[n + 1];
                        ez = e[n + 2];
                        sx += a1y * ez - a1z * ey;
                        sy += a1z * ex - a1x * ez;
                        sz += a1x * ey - a1y * ex;
                        n = t + o2;
                        ex = e[n];
                        ey = e[n + 1];
                        ez = e[n + 2];
                        sx += a2y * ez - a2z * ey;
                        sy += a2z * ex - a2x * ez;
                        sz += a2x * ey - a2y * ex;
                        n = t + o3;
                        ex = e[n];
                        ey = e[n + 1];
                        ez = e[n + 2];
                        sx += a3y * ez - a3z * ey;
                        sy += a3z * ex - a3x * ez;
                        sz += a3x * ey - a3y * ex;
                        double ox = h[t], oy = h[t + 1], oz = h[t + 2];
                        double nhx = ox - sx, nhy = oy - sy, nhz = oz - sz;
                        h[t] = nhx;
                        h[t + 1] = nhy;
                        h[t + 2] = nhz;
                        ex = e[t];
                        ey = e[t + 1];
                        ez = e[t + 2];
                        energy += ex * ex + ey * ey + ez * ez + ox * nhx + oy * nhy + oz * nhz;
                    }
                }
            }
        }
        return halfVolume * energy;
    }

    /** The boxes whose cells need no value from a neighbour: computed while the neighbours' values travel. */
    int[][] innerBoxes() {
        return inner;
    }

    /** The boxes of the cells next to an interface: computed once the neighbours' values are in. */
    int[][] shellBoxes() {
        return shell;
    }

    /** One whole step of a block with no neighbour (walls all round): the sequential run. */
    double step() {
        mirror(false);
        updateE(whole);
        mirror(true);
        return updateH(whole);
    }

    /** E and H of the block's own tetrahedra, in its local order (z slowest, then y, x, type). */
    /** Sets E and H of this block's tetrahedra from {@link #fields()}'s arrays (a checkpoint's). */
    void restore(final double[] fromE, final double[] fromH) {
        int count = 3 * nx * ny * nz * Kuhn.TYPES;
        if (fromE.length != count || fromH.length != count) {
            throw new IllegalArgumentException(block + " has " + count + " field values, a checkpoint gave "
                    + fromE.length + " of E and " + fromH.length + " of H");
        }
        copyFields(fromE, fromH, false);
    }

    double[][] fields() {
        int count = 3 * nx * ny * nz * Kuhn.TYPES;
        return fieldsInto(new double[count], new double[count]);
    }

    /** {@link #fields()} into the arrays given (of its size), which it returns. */
    double[][] fieldsInto(final double[] outE, final double[] outH) {
        copyFields(outE, outH, true);
        return new double[][] {outE, outH};
    }

    /** Copies E and H between the padded arrays and flat ones in the block's order: into the flat ones if {@code out}. */
    private void copyFields(final double[] flatE, final double[] flatH, final boolean out) {
        int n = 0;
        int length = 3 * Kuhn.TYPES * nx;
        for (int k = 0; k < nz; k++) {
            for (int j = 0; j < ny; j++) {
                int padded = slot(0, j, k, 0);
                if (out) {
                    System.arraycopy(e, padded, flatE, n, length);
                    System.arraycopy(h, padded, flatH, n, length);
                } else {
                    System.arraycopy(flatE, n, e, padded, length);
                    System.arraycopy(flatH, n, h, padded, length);
                }
                n += length;
            }
        }
    }

    /** |E| averaged over the six tetrahedra of each cell of the layer at global z index {@code layer}, x fastest. */
    double[] sliceMagnitudeE(final int layer) {
        int k = layer - block.lo()[2];
        if (k < 0 || k >= nz) {
            return new double[0];
        }
        double[] out = new double[nx * ny];
        for (int j = 0; j < ny; j++) {
            for (int i = 0; i < nx; i++) {
                double sum = 0;
                for (int p = 0; p < Kuhn.TYPES; p++) {
                    int s = slot(i, j, k, p);
                    sum += Math.sqrt(e[s] * e[s] + e[s + 1] * e[s + 1] + e[s + 2] * e[s + 2]);
                }
                out[i + nx * j] = sum / Kuhn.TYPES;
            }
        }
        return out;
    }

    /** Bytes of heap this solver's data takes: the two field arrays and the slot lists, with array headers. */
    long heapBytes() {
        long bytes = 2 * (16 + 8L * e.length);
        for (int[][] lists : new int[][][] {sendSlots, ghostSlots, wallPairs}) {
            for (int[] list : lists) {
                bytes += list == null ? 0 : 16 + 4L * list.length;
            }
        }
        return bytes;
    }
}
