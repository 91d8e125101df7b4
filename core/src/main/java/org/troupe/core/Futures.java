package org.troupe.core;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import org.troupe.core.exceptions.CallFailedException;
import org.troupe.core.exceptions.FutureTimeoutException;
import org.troupe.core.exceptions.WaitInterruptedException;
import org.troupe.core.internal.FutureHandler;
import org.troupe.core.proxy.ProxyGenerator;

/**
 * Waiting for futures explicitly. Futures are the proxies that asynchronous calls return (and the
 * {@code CompletableFuture}s of methods that return one); any other object counts as a resolved future of itself.
 * Touching a future (calling a method on it) waits too; these methods wait without calling anything. Every wait
 * ends with a {@link WaitInterruptedException} when its thread is interrupted.
 */
public final class Futures {
    private Futures() {}

    /** Waits for {@code future} and returns its value (the object itself, not a proxy of it). */
    @SuppressWarnings("unchecked")
    public static <T> T waitFor(final T future) {
        final FutureHandler h = handler(future);
        if (h != null) {
            return (T) h.state().await(h.spin());
        }
        if (future instanceof CompletableFuture<?> cf) {
            try {
                cf.get();
            } catch (ExecutionException e) {
                throw unwrap(e.getCause());
            } catch (InterruptedException e) {
                throw interrupted();
            }
        }
        return future;
    }

    private static WaitInterruptedException interrupted() {
        Thread.currentThread().interrupt();
        return new WaitInterruptedException("Interrupted while waiting for a future");
    }

    /** As {@link #waitFor(Object)}, failing with a {@link FutureTimeoutException} after {@code timeout}. */
    @SuppressWarnings("unchecked")
    public static <T> T waitFor(final T future, final Duration timeout) {
        final FutureHandler h = handler(future);
        if (h != null) {
            return (T) h.state().await(h.spin(), timeout.toNanos());
        }
        if (future instanceof CompletableFuture<?> cf) {
            try {
                cf.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new FutureTimeoutException("No result within " + timeout.toMillis() + " ms");
            } catch (ExecutionException e) {
                throw unwrap(e.getCause());
            } catch (InterruptedException e) {
                throw interrupted();
            }
        }
        return future;
    }

    /** Waits for every future of {@code futures}. */
    public static void waitForAll(final Collection<?> futures) {
        for (final Object f : futures) {
            waitForCompletion(f);
        }
    }

    /** Waits until one future of {@code futures} is resolved and returns its index (the lowest, if several are). */
    public static int waitForAny(final List<?> futures) {
        if (futures.isEmpty()) {
            throw new IllegalArgumentException("waitForAny needs at least one future");
        }
        final CompletableFuture<Integer> first = new CompletableFuture<>();
        for (int i = 0; i < futures.size(); i++) {
            if (!isAwaited(futures.get(i))) {
                return i;
            }
        }
        for (int i = 0; i < futures.size(); i++) {
            final int index = i;
            onDone(futures.get(i), () -> first.complete(index));
        }
        try {
            first.get();
        } catch (InterruptedException e) {
            throw interrupted();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e); // completed only with an index
        }
        for (int i = 0; i < futures.size(); i++) {
            if (!isAwaited(futures.get(i))) {
                return i;
            }
        }
        return first.join();
    }

    /** Whether {@code object} is a future still waiting for its value. */
    public static boolean isAwaited(final Object object) {
        final FutureHandler h = handler(object);
        if (h != null) {
            return !h.state().isDone();
        }
        return object instanceof CompletableFuture<?> cf && !cf.isDone();
    }

    /**
     * Calls {@code callback} with the value, or the failure, once {@code future} is resolved: at once, in this
     * thread, if it is resolved already; otherwise in a virtual thread of its own, so that the callback may call
     * active objects (the one that answered too) and wait for their answers. Callbacks of different futures may
     * run at once.
     */
    @SuppressWarnings("unchecked")
    public static <T> void onResolved(final T future, final BiConsumer<? super T, ? super Throwable> callback) {
        final FutureHandler h = handler(future);
        if (h != null) {
            h.state().whenDoneOnItsOwnThread((v, t) -> callback.accept((T) v, t));
        } else if (future instanceof CompletableFuture<?> cf) {
            cf.whenComplete((v, t) -> callback.accept(future, t instanceof CompletionException c ? c.getCause() : t));
        } else {
            callback.accept(future, null);
        }
    }

    private static void waitForCompletion(final Object future) {
        final FutureHandler h = handler(future);
        if (h != null) {
            try {
                h.state().await(h.spin());
            } catch (WaitInterruptedException e) {
                throw e;
            } catch (RuntimeException | Error e) {
                // resolved with a failure: resolved all the same
            }
        } else if (future instanceof CompletableFuture<?> cf) {
            try {
                cf.get();
            } catch (InterruptedException e) {
                throw interrupted();
            } catch (ExecutionException | CancellationException e) {
                // resolved with a failure
            }
        }
    }

    private static void onDone(final Object future, final Runnable action) {
        final FutureHandler h = handler(future);
        if (h != null) {
            h.state().whenDone((v, t) -> action.run());
        } else if (future instanceof CompletableFuture<?> cf) {
            cf.whenComplete((v, t) -> action.run());
        } else {
            action.run();
        }
    }

    private static FutureHandler handler(final Object object) {
        return ProxyGenerator.handlerOf(object) instanceof FutureHandler h ? h : null;
    }

    private static RuntimeException unwrap(final Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new CallFailedException("The call threw " + t, t.getClass().getName(), t);
    }
}
