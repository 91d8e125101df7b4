package org.troupe.core.service;

/**
 * How a call on an active object runs, decided once per method from its signature (see
 * {@link org.troupe.core.ActiveObjects#describe}).
 */
public enum CallMode {
    /** A {@code void} method: the caller goes on at once; an exception in the callee is logged there. */
    ONE_WAY,
    /**
     * The method returns a type that can be proxied (an interface, or a class that is not final): the caller gets at
     * once a future of that type, whose first use waits for the value (wait-by-necessity).
     */
    FUTURE,
    /** The method returns {@code CompletableFuture}, {@code CompletionStage} or {@code Future}: the caller gets one. */
    COMPLETION_STAGE,
    /**
     * The return type cannot be proxied (a primitive, {@code String}, an array, a final class or record, a type
     * variable): the caller waits for the result. Setting {@code troupe.core.synchronousCalls=refuse} makes such a
     * call an error instead.
     */
    SYNCHRONOUS,
    /** The method runs in the caller's thread, without queueing, on the callee ({@link Immediate}). */
    IMMEDIATE
}
