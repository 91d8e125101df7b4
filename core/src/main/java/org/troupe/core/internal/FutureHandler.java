package org.troupe.core.internal;

import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.spi.CallHandler;
import org.troupe.core.spi.MethodTable;
import org.troupe.core.spi.Outcome;
import org.troupe.core.spi.Spin;

/**
 * Behind a future proxy: the first call waits for the value (wait-by-necessity), then every call goes to it; but
 * {@code toString} never waits (see {@link #describe}).
 */
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
        if (method == MethodTable.TO_STRING) {
            return describe(state);
        }
        final Object value = state.await(spin);
        if (value == null) {
            return switch (method) {
                case MethodTable.EQUALS -> args[0] == null;
                case MethodTable.HASH_CODE -> 0;
                default -> throw new NullPointerException("The future of " + state.call() + " resolved to null");
            };
        }
        return ProxyGenerator.invoker(type).invoke(value, method, args);
    }

    /**
     * A future as text, never waiting and never rethrowing (it is printed in logs and failure reports):
     * {@code <awaited>}, the value's own text, or {@code <failed: ExceptionClass: message>}.
     */
    public static String describe(final Outcome state) {
        if (!state.isDone()) {
            return "<awaited>";
        }
        final Throwable failure = state.failure();
        if (failure != null) {
            return "<failed: " + Outcome.describe(failure) + ">";
        }
        return String.valueOf(state.await(Spin.NONE));
    }
}
