package org.troupe.core.spi;

import java.util.function.BiConsumer;

/**
 * The outcome of a call, as the layers above the core see it: pending, then a value or a failure, for ever. It is
 * the state behind a future proxy ({@link Calls#futureOf}); a layer may also make its own and settle it (a group's
 * result slot, made by {@link Calls#pending}). The first outcome wins; later ones are ignored.
 */
public interface Outcome {

    /** What was called ("Solver.step on Solver#3@troupe://host:port/node"). */
    String call();

    boolean isDone();

    /** The failure, or null if there is none or no outcome yet. */
    Throwable failure();

    /** Settles it with a value, unless it is settled already. */
    void complete(Object value);

    /** Settles it with a failure, unless it is settled already. */
    void fail(Throwable cause);

    /** Runs {@code callback(value, failure)} once there is an outcome: at once, on this thread, if there is one. */
    void whenDone(BiConsumer<Object, Throwable> callback);

    /**
     * Registers {@code callback} if there is no outcome yet, and says whether it did; never runs it on this thread
     * (for callers holding a lock the callback may need).
     */
    boolean whenPending(BiConsumer<Object, Throwable> callback);

    /**
     * Runs {@code callback}, user code, with the outcome: at once in this thread if there is one already, else on a
     * virtual thread of its own once there is. Never on the thread that settles the outcome (one reading a
     * connection, the call deadlines' timer, an event loop, an active object's own thread), where user code that
     * calls active objects and waits could block what it waits for.
     */
    default void whenDoneOnItsOwnThread(final BiConsumer<Object, Throwable> callback) {
        if (!whenPending((v, t) -> Thread.ofVirtual().name("troupe-callback").start(() -> callback.accept(v, t)))) {
            whenDone(callback); // settled meanwhile: runs at once
        }
    }

    /**
     * Waits for the outcome, spinning first as {@code spin} says (reading what the transports receive meanwhile),
     * and returns the value or throws the failure as it should be where a future is touched.
     */
    Object await(Spin spin);

    /** As {@link #await(Spin)}, giving up with a {@code FutureTimeoutException} after {@code timeoutNanos}. */
    Object await(Spin spin, long timeoutNanos);

    /**
     * A failure as text, {@code ExceptionClass: message}, never throwing: its message may come from an
     * application's {@code getMessage}, which may throw (printing must never fail where a failure is reported).
     */
    static String describe(final Throwable failure) {
        final String message = message(failure);
        return failure.getClass().getName() + (message == null ? "" : ": " + message);
    }

    /** A failure's message, never throwing: "(its getMessage threw X)" if reading it does. */
    static String message(final Throwable failure) {
        try {
            return failure.getMessage();
        } catch (Throwable t) {
            return "(its getMessage threw " + t.getClass().getName() + ")";
        }
    }
}
