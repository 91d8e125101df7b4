package org.troupe.apps.jem3d;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A subdomain: the cells [lo, hi) along each axis, and its place (ia, ib, ic) in the division (a, b, c).
 */
public record Block(int[] lo, int[] hi, int[] position, int[] division) implements Serializable {
    public Block {
        if (lo == null
                || hi == null
                || position == null
                || division == null
                || lo.length != 3
                || hi.length != 3
                || position.length != 3
                || division.length != 3) {
            throw new IllegalArgumentException(
                    "a block needs three lower and upper cell indices, a position and a " + "division");
        }
        for (int d = 0; d < 3; d++) {
            if (lo[d] < 0 || hi[d] <= lo[d] || position[d] < 0 || position[d] >= division[d]) {
                throw new IllegalArgumentException("not a block: cells [" + lo[d] + "," + hi[d] + ") at position "
                        + position[d] + " of " + division[d] + " along axis " + "xyz".charAt(d));
            }
        }
    }

    /** The blocks of a division of the mesh's cells, as even as possible, numbered x fastest. */
    public static List<Block> divide(final Mesh mesh, final int[] division) {
        for (int d = 0; d < 3; d++) {
            if (division[d] < 1 || division[d] > mesh.cells(d)) {
                throw new IllegalArgumentException("division " + Arrays.toString(division) + " does not fit mesh "
                        + mesh + ": axis " + "xyz".charAt(d) + " has " + mesh.cells(d) + " cells");
            }
        }
        List<Block> blocks = new ArrayList<>();
        for (int c = 0; c < division[2]; c++) {
            for (int b = 0; b < division[1]; b++) {
                for (int a = 0; a < division[0]; a++) {
                    int[] at = {a, b, c};
                    int[] lo = new int[3];
                    int[] hi = new int[3];
                    for (int d = 0; d < 3; d++) {
                        lo[d] = (int) ((long) at[d] * mesh.cells(d) / division[d]);
                        hi[d] = (int) ((long) (at[d] + 1) * mesh.cells(d) / division[d]);
                    }
                    blocks.add(new Block(lo, hi, at, division.clone()));
                }
            }
        }
        return blocks;
    }

    /** This block's number in the division, x fastest. */
    public int index() {
        return position[0] + division[0] * (position[1] + division[1] * position[2]);
    }

    /** The number of the block across side s (axis s / 2, upper when s is odd), or -1 at the cube's wall. */
    public int neighbour(final int side) {
        int d = side / 2;
        int step = side % 2 == 1 ? 1 : -1;
        int[] at = position.clone();
        at[d] += step;
        if (at[d] < 0 || at[d] >= division[d]) {
            return -1;
        }
        return at[0] + division[0] * (at[1] + division[1] * at[2]);
    }

    public int cells(final int d) {
        return hi[d] - lo[d];
    }

    public long tetrahedra() {
        return (long) Kuhn.TYPES * cells(0) * cells(1) * cells(2);
    }

    @Override
    public String toString() {
        return "subdomain " + index() + " " + Arrays.toString(position) + " cells [" + lo[0] + "," + hi[0] + ")x["
                + lo[1] + "," + hi[1] + ")x[" + lo[2] + "," + hi[2] + ")";
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof Block other
                && Arrays.equals(lo, other.lo)
                && Arrays.equals(hi, other.hi)
                && Arrays.equals(position, other.position)
                && Arrays.equals(division, other.division);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(lo) * 31 + Arrays.hashCode(position);
    }
}
