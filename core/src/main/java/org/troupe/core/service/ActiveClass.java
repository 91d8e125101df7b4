package org.troupe.core.service;

import java.util.List;
import java.util.Map;

/**
 * How calls on active objects of a class run, decided from the methods' signatures before any call is made.
 *
 * @param type the class
 * @param modes each intercepted public method, written {@code name(ParamType, ...)}, and its mode
 * @param notIntercepted public final methods: a proxy cannot intercept them, so calling one on an active object's
 *     proxy runs the proxy's own (empty) state rather than the active object; do not call them through a proxy
 */
public record ActiveClass(Class<?> type, Map<String, CallMode> modes, List<String> notIntercepted) {
    /** The methods whose callers wait for the result. */
    public List<String> synchronousMethods() {
        return modes.entrySet().stream()
                .filter(e -> e.getValue() == CallMode.SYNCHRONOUS)
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    public CallMode mode(final String signature) {
        final CallMode mode = modes.get(signature);
        if (mode == null) {
            throw new IllegalArgumentException(
                    "No intercepted method " + signature + " in " + type.getName() + "; it has " + modes.keySet());
        }
        return mode;
    }
}
