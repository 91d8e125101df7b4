package org.troupe.core.internal;

import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.spi.CallHandler;
import org.troupe.core.spi.MethodTable;
import org.troupe.core.spi.Outcome;
import org.troupe.core.spi.Spin;

/** Behind a future proxy: the first call waits for the value (wait-by-necessity), then every call goes to it. */
public final class FutureHandler implements CallHandler {
    private final Outcome state;
    private final Class<?> type;
    private final Spin spin;

    public FutureHandler(final Outcome state, final Class<?> type, final Spin spin) {
        this.state = state;
        this.type = type;
        this.spin = spin;
    }

    public Outcome state() {
        return state;
    }

    /** The type the future proxy has. */
    public Class<?> type() {
        return type;
    }

    /** How waits for this future spin: as the waits for earlier results of the same proxy did. */
    public Spin spin() {
        return spin;
    }

    @Override
    public Object handle(final int method, final Object[] args) throws Throwable {
        final Object value = state.await(spin);
        if (value == null) {
            return switch (method) {
                case MethodTable.EQUALS -> args[0] == null;
                case MethodTable.HASH_CODE -> 0;
                case MethodTable.TO_STRING -> "null";
                default -> throw new NullPointerException("The future of " + state.call() + " resolved to null");
            };
        }
        return ProxyGenerator.invoker(type).invoke(value, method, args);
    }
}
