package org.troupe.bench.serialization;

/** Small helpers for the cases' {@code difference} messages. */
final class Differences {
    private Differences() {}

    static String typeOf(final Object o) {
        return o == null ? "null" : o.getClass().getName();
    }
}
