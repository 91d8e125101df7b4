package org.troupe.bench.serialization;

import java.util.Arrays;
import java.util.Optional;
import java.util.SplittableRandom;

/** A {@code double[]}: the bulk payload of a solver (field values of a subdomain). */
final class DoubleArrayCase implements BenchCase {
    private final String name;
    private final int length;

    DoubleArrayCase(final String name, final int length) {
        this.name = name;
        this.length = length;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Object build() {
        // Random bits, so no encoder can win by compressing a pattern.
        final SplittableRandom random = new SplittableRandom(length);
        final double[] values = new double[length];
        for (int i = 0; i < length; i++) {
            values[i] = random.nextDouble(-1e6, 1e6);
        }
        return values;
    }

    @Override
    public Optional<String> difference(final Object original, final Object copy) {
        if (!(copy instanceof double[] c)) {
            return Optional.of("expected a double[] but got " + Differences.typeOf(copy));
        }
        final double[] o = (double[]) original;
        if (c == o) {
            return Optional.of("the copy is the original array");
        }
        final int at = Arrays.mismatch(o, c);
        return at < 0
                ? Optional.empty()
                : Optional.of("element " + at + " differs (lengths " + o.length + " and " + c.length + ")");
    }

    @Override
    public boolean primitiveArrays() {
        return true;
    }
}
