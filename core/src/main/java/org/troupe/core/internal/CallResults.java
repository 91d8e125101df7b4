package org.troupe.core.internal;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.internal.RuntimeSettings.SynchronousCalls;
import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.service.CallMode;
import org.troupe.core.spi.Outcome;
import org.troupe.core.spi.Spin;

/**
 * What a call on an active object's proxy returns, the same for objects of this JVM and of others: the future as a
 * proxy of the result type, as a {@link CompletableFuture}, or its value; and the synchronous-call policy, with its
 * one warning per method.
 */
public final class CallResults {
    private static final Logger LOG = LoggerFactory.getLogger(CallResults.class);

    private final SynchronousCalls synchronousCalls;
    private final Spin spin;
    private final AtomicReferenceArray<Boolean> warned;

    /** For the calls through one proxy, whose class has {@code methods} methods. */
    public CallResults(final SynchronousCalls synchronousCalls, final long spinNanos, final int methods) {
        this.synchronousCalls = synchronousCalls;
        this.spin = new Spin(spinNanos);
        this.warned = new AtomicReferenceArray<>(methods);
    }

    /** Refuses a synchronous call, or warns of it once per method, as {@code troupe.core.synchronousCalls} says. */
    public void checkSynchronous(final int method, final Method m, final Supplier<String> what) {
        if (synchronousCalls == SynchronousCalls.REFUSE) {
            throw new TroupeException(what.get() + " would be synchronous (its result, a "
                    + m.getReturnType().getName() + ", cannot be a future) and troupe.core.synchronousCalls=refuse;"
                    + " return void, an interface, a non-final class or a CompletableFuture instead");
        }
        if (synchronousCalls == SynchronousCalls.WARN && warned.compareAndSet(method, null, Boolean.TRUE)) {
            LOG.warn(
                    "{} is synchronous: its result, a {}, cannot be a future",
                    what.get(),
                    m.getReturnType().getName());
        }
    }

    /** The caller's side of a call with a reply: a future proxy, a completable future, or the value itself. */
    public Object of(final CallMode mode, final FutureState f, final Class<?> returnType) {
        return switch (mode) {
            case FUTURE -> futureProxy(f, returnType, spin);
            case COMPLETION_STAGE -> {
                final CompletableFuture<Object> cf = new CompletableFuture<>();
                // Completing runs the caller's dependent stages, which may call active objects and wait.
                f.whenDoneOnItsOwnThread((v, t) -> {
                    if (t != null) {
                        cf.completeExceptionally(t);
                    } else {
                        cf.complete(v);
                    }
                });
                yield cf;
            }
            case SYNCHRONOUS, IMMEDIATE -> f.await(spin);
            case ONE_WAY -> throw new IllegalArgumentException("a one-way call has no result");
        };
    }

    /** What a call is, for messages: "Solver.step on Solver#3@troupe://host:port/node". */
    public static String describe(final Method m, final String target) {
        return m.getDeclaringClass().getSimpleName() + "." + m.getName() + " on " + target;
    }

    /** A proxy of {@code type} whose first use waits for {@code f} (wait-by-necessity). */
    public static Object futureProxy(final Outcome f, final Class<?> type, final Spin spin) {
        return ProxyGenerator.newProxy(type, new FutureHandler(f, type, spin));
    }
}
