package org.troupe.core.proxy;

import org.troupe.core.spi.MethodTable;

/**
 * Calls a method of a {@link MethodTable} on a target by index, without reflection. Generated per type; public only
 * because generated classes implement it.
 */
public interface Invoker {
    /** Invokes method {@code method} on {@code target}; returns the result boxed, or null for {@code void}. */
    Object invoke(Object target, int method, Object[] args) throws Throwable;
}
