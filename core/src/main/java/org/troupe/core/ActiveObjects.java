package org.troupe.core;

import java.util.Objects;
import java.util.function.Consumer;
import org.troupe.core.exceptions.TerminatedException;
import org.troupe.core.internal.CallModes;
import org.troupe.core.internal.OneWayFailures;
import org.troupe.core.service.ActiveClass;
import org.troupe.core.service.CallMode;

/**
 * Creating, naming and ending active objects: objects with their own thread, called through a proxy of their class.
 *
 * <pre>{@code
 * Node node = TroupeRuntime.get().defaultNode();
 * Solver solver = ActiveObjects.newActive(Solver.class, new Object[] {mesh, 0.01}, node);
 * Residual r = solver.step();        // returns at once: r is a future
 * double norm = r.norm();            // waits here for the step to finish (wait-by-necessity)
 * }</pre>
 *
 * <p>Each method's {@link CallMode} follows from its signature: {@code void} methods are one-way; methods whose
 * result type can be proxied return a future of that type; methods returning {@code CompletableFuture},
 * {@code CompletionStage} or {@code Future} return one; the rest (primitives, {@code String}, arrays, final classes,
 * {@code Object} and type variables) are synchronous. {@link #describe(Class)} lists them before any call. Arguments
 * and results are deep copies, except immutable values, active objects and futures, which are shared.
 */
public final class ActiveObjects {
    private ActiveObjects() {}

    /**
     * Calls {@code listener} with every one-way call made from this JVM whose method threw, in this JVM or in
     * another (the callee's runtime reports it back). Such failures are logged (WARN) in any case; the listener
     * runs on a thread of the runtime: keep it short. {@link Subscription#close()} removes it.
     */
    public static Subscription onOneWayFailure(final Consumer<OneWayFailure> listener) {
        Objects.requireNonNull(listener, "listener");
        final Runnable remove = OneWayFailures.listen((call, cause) -> listener.accept(new OneWayFailure(call, cause)));
        return remove::run;
    }

    /**
     * Creates an active object of {@code type} on {@code node} with the public constructor that takes {@code args}.
     * The class must be concrete and neither final nor sealed; it needs no particular constructor.
     *
     * @return the proxy through which the object is called; it is a {@code T}
     */
    public static <T> T newActive(final Class<T> type, final Object[] args, final Node node) {
        return node.runtime().newActive(type, args, node);
    }

    /** {@link #newActive(Class, Object[], Node)} on this JVM's default node. */
    public static <T> T newActive(final Class<T> type, final Object[] args) {
        final TroupeRuntime runtime = TroupeRuntime.get();
        return runtime.newActive(type, args, runtime.defaultNode());
    }

    /**
     * Makes an existing object active on {@code node} (of this JVM). The object is not copied: from now on only the
     * returned proxy should be used to reach it.
     */
    public static <T> T turnActive(final T object, final Node node) {
        return node.runtime().turnActive(object, node);
    }

    /** Registers an active object under {@code name} in its runtime, for {@link #lookup}. */
    public static void register(final Object activeObject, final String name) {
        TroupeRuntime.get().register(activeObject, name);
    }

    /** The active object registered as {@code name}. */
    public static <T> T lookup(final Class<T> type, final String name) {
        return TroupeRuntime.get().lookup(type, name);
    }

    /**
     * Ends an active object: its activity returns after the request it is serving, and requests still queued, and
     * those sent later, fail with a {@link TerminatedException}.
     */
    public static void terminate(final Object activeObject) {
        TroupeRuntime.terminateAny(activeObject);
    }

    /** Whether {@code object} is the proxy of an active object. */
    public static boolean isActiveObject(final Object object) {
        return TroupeRuntime.calls().isActiveObject(object);
    }

    /**
     * The proxy of the active object whose code is running, as others see it: what to pass on so that others can
     * call this object back. Only in the object's own thread (its methods and activity, not immediate methods).
     */
    public static <T> T self(final Class<T> type) {
        return TroupeRuntime.get().self(type);
    }

    /** A node of the JVM where {@code activeObject} lives, to create other active objects beside it. */
    public static Node nodeBeside(final Object activeObject) {
        return TroupeRuntime.get().nodeBeside(activeObject);
    }

    /** How each public method of {@code type} would be called on an active object. */
    public static ActiveClass describe(final Class<?> type) {
        return CallModes.describe(type);
    }
}
