package org.troupe.core.spi;

/**
 * Generated proxies for the layers above the core: a proxy of a class or interface whose calls all go to a
 * {@link CallHandler} (a group of {@code T} is a {@code T}). No reflection on the call path.
 * {@code TroupeRuntime.proxies()} hands it out; it needs no running runtime. Thread-safe.
 */
public interface Proxies {
    /** Whether a proxy of {@code type} can be made: an interface, or a class neither final nor sealed. */
    boolean canProxy(Class<?> type);

    /** A proxy of {@code type} whose intercepted calls go to {@code handler}, numbered by {@link MethodTable}. */
    <T> T newProxy(Class<T> type, CallHandler handler);

    /** The handler behind a generated proxy, or null if {@code object} is not one. */
    CallHandler handlerOf(Object object);
}
