package org.troupe.bench.serialization;

import java.util.Optional;

/**
 * One object graph the suite serializes: how to build it and how to tell that a copy came back right.
 * Implementations are stateless; {@link #build()} gives the same graph every time (fixed seeds).
 */
public interface BenchCase {
    /** The {@code case} field of the figures, e.g. {@code double-1m}. */
    String name();

    Object build();

    /** Where {@code copy} differs from {@code original}, or empty when it is a faithful deep copy. */
    Optional<String> difference(Object original, Object copy);

    /** Whether the graph shares objects or has cycles, so serializers must track references. */
    default boolean references() {
        return false;
    }

    /** Whether the graph is only primitive arrays, so a plain copy is a meaningful lower bound. */
    default boolean primitiveArrays() {
        return false;
    }
}
