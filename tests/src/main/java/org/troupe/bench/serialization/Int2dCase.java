package org.troupe.bench.serialization;

import java.util.Arrays;
import java.util.Optional;
import java.util.SplittableRandom;

/** An {@code int[rows][columns]}: an array of arrays, so one object per row plus the outer array. */
final class Int2dCase implements BenchCase {
    private final int rows;
    private final int columns;

    Int2dCase(final int rows, final int columns) {
        this.rows = rows;
        this.columns = columns;
    }

    @Override
    public String name() {
        return rows == columns ? "int2d-" + rows : "int2d-" + rows + "x" + columns;
    }

    @Override
    public Object build() {
        // Full-range values: the raw-data bound, which variable-length encodings cannot beat by luck.
        final SplittableRandom random = new SplittableRandom(17);
        final int[][] matrix = new int[rows][columns];
        for (final int[] row : matrix) {
            for (int j = 0; j < columns; j++) {
                row[j] = random.nextInt();
            }
        }
        return matrix;
    }

    @Override
    public Optional<String> difference(final Object original, final Object copy) {
        if (!(copy instanceof int[][] c)) {
            return Optional.of("expected an int[][] but got " + Differences.typeOf(copy));
        }
        final int[][] o = (int[][]) original;
        if (c.length != o.length) {
            return Optional.of("the copy has " + c.length + " rows instead of " + o.length);
        }
        for (int i = 0; i < o.length; i++) {
            if (c[i] == o[i]) {
                return Optional.of("row " + i + " is shared with the original, not copied");
            }
            if (!Arrays.equals(o[i], c[i])) {
                return Optional.of("row " + i + " differs");
            }
        }
        return Optional.empty();
    }

    @Override
    public boolean primitiveArrays() {
        return true;
    }
}
