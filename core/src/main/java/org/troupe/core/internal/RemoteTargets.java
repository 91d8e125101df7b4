package org.troupe.core.internal;

import java.lang.reflect.Method;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.troupe.core.spi.CallHandler;
import org.troupe.core.spi.Outcome;

/**
 * The active objects of other JVMs, as the calls on many objects see them ({@link ManyCalls}): the remote package
 * implements it, and the API hands it over, so that this package does not depend on the remote one.
 */
public interface RemoteTargets {
    /** Whether {@code handler} is behind the proxy of an active object of another JVM. */
    boolean isRemote(CallHandler handler);

    /** The class of the active object behind {@code handler}, one for which {@link #isRemote} holds. */
    Class<?> classOf(CallHandler handler);

    /**
     * Calls {@code method} on the targets {@code indexes[0 .. count)}, target {@code i} through {@code handlers[i]}
     * with {@code args[i]}: those of one runtime given the same argument array in one message. Puts each target's
     * outcome in {@code out[i]}, a failed one for a target that cannot be called.
     *
     * @param what what target {@code i}'s call is, for messages
     */
    void send(
            CallHandler[] handlers,
            int[] indexes,
            int count,
            Method method,
            Object[][] args,
            Outcome[] out,
            IntFunction<Supplier<String>> what,
            boolean acknowledged);
}
