package org.troupe.core.spi;

/**
 * Receives every call made on a generated proxy. Public only because generated classes, which live in the packages
 * of the types they proxy, call it; not for applications.
 */
public interface CallHandler {
    /**
     * @param method the index of the method in the proxied type's {@link MethodTable}
     * @param args the arguments, primitives boxed; never null
     * @return the result, boxed if primitive; ignored for {@code void}
     */
    Object handle(int method, Object[] args) throws Throwable;
}
