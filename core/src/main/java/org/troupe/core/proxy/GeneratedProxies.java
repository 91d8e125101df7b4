package org.troupe.core.proxy;

import org.troupe.core.spi.CallHandler;
import org.troupe.core.spi.Proxies;

/** The layers' view of {@link ProxyGenerator}: the proxies of a class or interface whose calls go to a handler. */
public enum GeneratedProxies implements Proxies {
    INSTANCE;

    @Override
    public boolean canProxy(final Class<?> type) {
        return ProxyGenerator.canProxy(type);
    }

    @Override
    public <T> T newProxy(final Class<T> type, final CallHandler handler) {
        return ProxyGenerator.newProxy(type, handler);
    }

    @Override
    public CallHandler handlerOf(final Object object) {
        return ProxyGenerator.handlerOf(object);
    }
}
