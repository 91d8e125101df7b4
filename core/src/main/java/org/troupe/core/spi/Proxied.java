package org.troupe.core.spi;

/**
 * Implemented by every generated proxy, so the runtime can find the handler behind a proxy. Public only because
 * generated classes implement it; not for applications.
 */
public interface Proxied {
    CallHandler troupe$handler();

    void troupe$bind(CallHandler handler);
}
