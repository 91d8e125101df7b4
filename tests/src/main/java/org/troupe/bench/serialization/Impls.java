package org.troupe.bench.serialization;

import java.util.List;

/** The implementations of the suite, in the order they are printed. */
final class Impls {
    static final List<Impl> ALL =
            List.of(new TroupeImpl(), new KryoFieldImpl(), new ForyImpl(), new JdkImpl(), new ArrayCopyImpl());

    private Impls() {}

    static Impl byName(final String name) {
        return ALL.stream()
                .filter(i -> i.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no serialization impl '" + name + "'"));
    }
}
