package org.troupe.bench.serialization;

import java.util.List;

/** The cases of the suite, in the order they are run and printed. */
final class Cases {
    static final List<BenchCase> ALL = List.of(
            new DoubleArrayCase("double-1m", 1 << 20),
            new DoubleArrayCase("double-8k", 8192),
            new BorderListCase(1000),
            new TreeCase(10),
            new DListCase(1000),
            new Int2dCase(256, 256),
            new SmallRequestCase());

    private Cases() {}

    static BenchCase byName(final String name) {
        return ALL.stream()
                .filter(c -> c.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no serialization case '" + name + "'"));
    }
}
