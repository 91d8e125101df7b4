package org.troupe.core.spi;

import org.troupe.core.proxy.ProxyGenerator;

/**
 * Generated proxies for the layers above the core: a proxy of a class or interface whose calls all go to a
 * {@link CallHandler} (a group of {@code T} is a {@code T}). No reflection on the call path.
 */
public final class Proxies {
    private Proxies() {
    }

    /** Whether a proxy of {@code type} can be made: an interface, or a class neither final nor sealed. */
    public static boolean canProxy(final Class<?> type) {
        return ProxyGenerator.canProxy(type);
    }

    /** A proxy of {@code type} whose intercepted calls go to {@code handler}, numbered by {@link MethodTable}. */
    public static <T> T newProxy(final Class<T> type, final CallHandler handler) {
        return ProxyGenerator.newProxy(type, handler);
    }

    /** The handler behind a generated proxy, or null if {@code object} is not one. */
    public static CallHandler handlerOf(final Object object) {
        return ProxyGenerator.handlerOf(object);
    }
}
