package org.troupe.core.spi;

import java.lang.reflect.Method;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.troupe.core.service.CallMode;

/**
 * Calls on several active objects at once, and the outcomes behind futures, for the layers built on the core
 * (groups, collectives); applications use those. {@code TroupeRuntime.calls()} hands it out; it needs no running
 * runtime. A call never waits here: each target's outcome is a {@link Outcome}, whatever the method's
 * {@link CallMode}. Targets of one other JVM that are given the same argument array get one message, so the
 * arguments are serialized once per JVM; each target still gets its own copy of them. Thread-safe.
 */
public interface Calls {
    /**
     * Calls {@code method} on every target, target {@code i} with {@code args[i]}.
     *
     * @param targets active objects (proxies), of {@code method}'s class or of subclasses
     * @return per target, its call's outcome: its result, or for a {@code void} method null once the call is on
     *     its way; a target that cannot be called has a failed outcome, and the others are called all the same
     */
    default Outcome[] send(final Object[] targets, final Method method, final Object[][] args) {
        return send(targets, method, args, null);
    }

    /**
     * As {@link #send(Object[], Method, Object[][])}; {@code roles}, if not null, says what target {@code i} is to
     * the caller ("member 2 of a group of 4"), for the messages of its call's failure.
     */
    Outcome[] send(Object[] targets, Method method, Object[][] args, IntFunction<String> roles);

    /**
     * As {@link #send(Object[], Method, Object[][], IntFunction)}, but the outcome of a {@code void} method is
     * settled once the target has run it: null, or what the method threw (or why it was not run), so that the
     * caller can keep it (a group reports it at its next call). A failure that comes after this returns is also
     * reported as a one-way call's is: logged in this JVM and handed to the
     * {@code ActiveObjects.onOneWayFailure} listeners, named with its role; one known by then (the arguments
     * refused here, say) is the caller's to throw. The target answers each call: a small message back per target.
     */
    Outcome[] sendAcknowledged(Object[] targets, Method method, Object[][] args, IntFunction<String> roles);

    /**
     * How a call of {@code method} returns its result, from its signature alone: {@link CallMode#FUTURE} when the
     * result can be a future proxy.
     */
    CallMode resultMode(Method method);

    /** Whether {@code object} is the proxy of an active object (of this JVM or another). */
    boolean isActiveObject(Object object);

    /** The proxy of the active object whose own thread calls this, or null for any other thread. */
    Object currentActiveObject();

    /** The class of the object behind an active object's proxy. */
    Class<?> classOf(Object active);

    /** The state behind a future proxy, or null if {@code object} is not one. */
    Outcome futureOf(Object object);

    /**
     * A future proxy of {@code type} for {@code state}: touching it waits (wait-by-necessity), spinning as
     * {@code spin} says; the futures of one caller share one, as it learns how long their waits are.
     */
    <T> T futureProxy(Outcome state, Class<T> type, Spin spin);

    /** A pending outcome; {@code call} says what was called, for error messages, and is made only when needed. */
    Outcome pending(Supplier<String> call);

    /** An outcome that failed already. */
    Outcome failed(Supplier<String> call, Throwable cause);

    /** The outcome of a call that needs no reply once it is sent: resolved to null, shared (it never changes). */
    Outcome sent();
}
