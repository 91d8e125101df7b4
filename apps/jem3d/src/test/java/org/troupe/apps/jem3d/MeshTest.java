package org.troupe.apps.jem3d;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The Kuhn split and the mesh built from it. */
class MeshTest {
    private static final double[] SPACING = {0.1, 0.2, 0.05};

    @Test
    void areaVectorsSumToZeroAndPointOutwards() {
        for (int p = 0; p < Kuhn.TYPES; p++) {
            double[][] a = Kuhn.areaVectors(p, SPACING);
            double[] centroid = new double[3];
            double[][] v = new double[4][];
            for (int i = 0; i < 4; i++) {
                v[i] = Kuhn.point(p, i, new double[3], SPACING);
                for (int c = 0; c < 3; c++) {
                    centroid[c] += v[i][c] / 4;
                }
            }
            for (int c = 0; c < 3; c++) {
                assertEquals(0, a[0][c] + a[1][c] + a[2][c] + a[3][c], 1e-15, "type " + p + " axis " + c);
            }
            for (int f = 0; f < 4; f++) {
                // from the centroid to a vertex of face f, along the normal: positive when it points outwards
                double[] toFace = Kuhn.minus(v[(f + 1) % 4], centroid);
                assertTrue(Kuhn.dot(a[f], toFace) > 0, "face " + f + " of type " + p + " points inwards");
            }
        }
    }

    @Test
    void theSixTetrahedraFillTheCell() {
        double sum = 0;
        for (int p = 0; p < Kuhn.TYPES; p++) {
            double[][] v = new double[4][];
            for (int i = 0; i < 4; i++) {
                v[i] = Kuhn.point(p, i, new double[3], SPACING);
            }
            double det = Kuhn.dot(Kuhn.minus(v[1], v[0]), Kuhn.cross(Kuhn.minus(v[2], v[0]), Kuhn.minus(v[3], v[0])));
            assertEquals(Kuhn.volume(SPACING), Math.abs(det) / 6, 1e-18);
            sum += Math.abs(det) / 6;
        }
        assertEquals(SPACING[0] * SPACING[1] * SPACING[2], sum, 1e-17);
    }

    @Test
    void neighboursAreSymmetricAndShareTheFace() {
        for (int p = 0; p < Kuhn.TYPES; p++) {
            double[][] a = Kuhn.areaVectors(p, SPACING);
            for (int f = 0; f < Kuhn.FACES; f++) {
                int[] n = Kuhn.NEIGHBOUR[p][f];
                int[] back = Kuhn.NEIGHBOUR[n[3]][n[4]];
                assertArrayEquals(new int[] {-n[0], -n[1], -n[2], p, f}, back, "type " + p + " face " + f);
                double[] other = Kuhn.areaVectors(n[3], SPACING)[n[4]];
                for (int c = 0; c < 3; c++) {
                    assertEquals(-a[f][c], other[c], 1e-15, "the shared face's area vectors are opposite");
                }
                boolean inside = n[0] == 0 && n[1] == 0 && n[2] == 0;
                assertEquals(inside, Kuhn.cellSide(p, f) == 0, "type " + p + " face " + f);
            }
        }
    }

    @Test
    void interiorAndWallFacesCount() {
        Mesh mesh = new Mesh(5, 4, 7);
        int[] n = {mesh.cells(0), mesh.cells(1), mesh.cells(2)};
        long wall = 0;
        long interior = 0;
        Set<String> faces = new HashSet<>();
        for (int k = 0; k < n[2]; k++) {
            for (int j = 0; j < n[1]; j++) {
                for (int i = 0; i < n[0]; i++) {
                    for (int p = 0; p < Kuhn.TYPES; p++) {
                        for (int f = 0; f < Kuhn.FACES; f++) {
                            int[] d = Kuhn.NEIGHBOUR[p][f];
                            int[] c = {i + d[0], j + d[1], k + d[2]};
                            if (c[0] < 0 || c[1] < 0 || c[2] < 0 || c[0] >= n[0] || c[1] >= n[1] || c[2] >= n[2]) {
                                wall++;
                            } else {
                                interior++;
                                String mine = i + "," + j + "," + k + "," + p;
                                String theirs = c[0] + "," + c[1] + "," + c[2] + "," + d[3];
                                faces.add(mine.compareTo(theirs) < 0 ? mine + "|" + theirs : theirs + "|" + mine);
                            }
                        }
                    }
                }
            }
        }
        long squares = 2L * (n[0] * n[1] + n[1] * n[2] + n[0] * n[2]);
        assertEquals(2 * squares, wall, "two triangles per wall square");
        assertEquals(interior / 2, faces.size(), "every interior face is seen from both sides, once each");
        assertEquals(4 * mesh.tetrahedra(), wall + interior);
    }

    @Test
    void divisionsPartitionTheCellsEvenly() {
        Mesh mesh = new Mesh(12, 9, 10);
        List<Block> blocks = Block.divide(mesh, new int[] {3, 2, 4});
        assertEquals(24, blocks.size());
        long cells = 0;
        for (Block b : blocks) {
            assertEquals(blocks.indexOf(b), b.index());
            cells += (long) b.cells(0) * b.cells(1) * b.cells(2);
            for (int d = 0; d < 3; d++) {
                int even = mesh.cells(d) / b.division()[d];
                assertTrue(b.cells(d) == even || b.cells(d) == even + 1, b.toString());
            }
            for (int side = 0; side < 6; side++) {
                int other = b.neighbour(side);
                if (other >= 0) {
                    assertEquals(b.index(), blocks.get(other).neighbour(side ^ 1));
                }
            }
        }
        assertEquals(mesh.cellCount(), cells);
        assertThrows(IllegalArgumentException.class, () -> Block.divide(mesh, new int[] {12, 1, 1}));
    }

    @Test
    void theBestDivisionHasTheFewestBorderFaces() {
        Mesh cube = new Mesh(41, 41, 41);
        assertArrayEquals(new int[] {2, 2, 4}, Division.best(cube, 16));
        assertArrayEquals(new int[] {1, 2, 3}, Division.best(cube, 6));
        assertArrayEquals(new int[] {1, 1, 2}, Division.best(cube, 2));
        assertArrayEquals(new int[] {2, 2, 2}, Division.best(cube, 8));
        assertArrayEquals(new int[] {1, 1, 1}, Division.best(cube, 1));
        // Proposition 3.2: 2 (a + b + c - 3) (m - 1)^2
        assertEquals(2L * (2 + 2 + 4 - 3) * 40 * 40, cube.borderFaces(new int[] {2, 2, 4}));
        assertNotEquals(cube.borderFaces(new int[] {1, 1, 16}), cube.borderFaces(new int[] {2, 2, 4}));
        // a long mesh is cut across its long side
        assertArrayEquals(new int[] {4, 1, 1}, Division.best(new Mesh(81, 11, 11), 4));
        // 7 blocks do not fit a mesh of 3 x 3 x 3 cells
        assertEquals(null, Division.best(new Mesh(4, 4, 4), 7));
    }

    @Test
    void badMeshesAreRefused() {
        assertEquals(new Mesh(41, 41, 41), Mesh.parse("41"));
        assertEquals(new Mesh(11, 21, 31), Mesh.parse("11x21x31"));
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class, () -> Mesh.parse("1"));
        assertTrue(small.getMessage().contains("at least 2 points"), small.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Mesh.parse("4x4"));
        assertThrows(IllegalArgumentException.class, () -> Mesh.parse("big"));
        assertThrows(IllegalArgumentException.class, () -> Mesh.parse("2000"));
    }
}
