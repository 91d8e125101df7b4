package org.troupe.core.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.troupe.core.exceptions.CallFailedException;
import org.troupe.core.exceptions.FutureTimeoutException;
import org.troupe.core.exceptions.TouchedAt;
import org.troupe.core.exceptions.WaitInterruptedException;
import org.troupe.core.spi.Outcome;
import org.troupe.core.spi.Spin;

/**
 * The state behind a future: pending until the reply comes, then a value or a failure, for ever. A waiter spins
 * briefly before it parks, because a reply often comes within microseconds and a park/unpark costs tens of them
 * ({@link Spin} says how long, and whether at all when the host's cores are all taken).
 */
public final class FutureState implements Outcome {
    private static final Object PENDING = new Object();
    /** What a waiter waits for; not capturing, so a wait allocates nothing. */
    private static final Predicate<FutureState> DONE = FutureState::isDone;

    private final Supplier<String> call;
    private volatile Object value = PENDING;
    private volatile Throwable failure;
    private List<BiConsumer<Object, Throwable>> callbacks;

    /**
     * @param call what was called, for error messages ("Solver.step on Solver#3@troupe://..."); made only when
     *     needed, as most calls never fail
     */
    public FutureState(final Supplier<String> call) {
        this.call = call;
    }

    /** The outcome of a call that needs no reply once it is sent: resolved to null, shared (it never changes). */
    public static final FutureState SENT = new FutureState(() -> "a one-way call");

    static {
        SENT.complete(null);
    }

    /** A future that failed already. */
    public static FutureState failed(final Supplier<String> call, final Throwable cause) {
        final FutureState f = new FutureState(call);
        f.fail(cause);
        return f;
    }

    @Override
    public String call() {
        return call.get();
    }

    @Override
    public boolean isDone() {
        return value != PENDING;
    }

    @Override
    public void complete(final Object result) {
        finish(result, null);
    }

    @Override
    public void fail(final Throwable cause) {
        finish(null, cause);
    }

    private void finish(final Object result, final Throwable cause) {
        final List<BiConsumer<Object, Throwable>> toRun;
        synchronized (this) {
            if (value != PENDING) {
                return; // the first outcome wins (a reply racing a peer failure)
            }
            failure = cause;
            value = result;
            toRun = callbacks;
            callbacks = null;
        }
        if (toRun != null) {
            for (final BiConsumer<Object, Throwable> c : toRun) {
                c.accept(result, cause);
            }
        }
    }

    /** Runs {@code callback} with the outcome once there is one: at once if there is one already. */
    @Override
    public void whenDone(final BiConsumer<Object, Throwable> callback) {
        if (!whenPending(callback)) {
            callback.accept(value, failure);
        }
    }

    /**
     * Registers {@code callback} for the outcome if there is none yet, and says whether it did. Never runs the
     * callback on the calling thread, for callers that hold a lock the callback may need.
     */
    @Override
    public boolean whenPending(final BiConsumer<Object, Throwable> callback) {
        synchronized (this) {
            if (value != PENDING) {
                return false;
            }
            if (callbacks == null) {
                callbacks = new ArrayList<>(2);
            }
            callbacks.add(callback);
            return true;
        }
    }

    /**
     * Waits for the outcome (spinning first, as {@code spin} says) and returns the value or throws the failure; an
     * interrupt ends the wait with a {@link WaitInterruptedException}, the flag kept.
     */
    @Override
    public Object await(final Spin spin) {
        if (value != PENDING) {
            return outcome();
        }
        final long start = System.nanoTime();
        if (!spin.spinThenYield(this, DONE)) {
            park(NO_DEADLINE);
        }
        spin.waited(System.nanoTime() - start);
        return outcome();
    }

    private static final long NO_DEADLINE = Long.MAX_VALUE;

    /** Wakes a parked waiter once there is an outcome: a callback, run after the lock is let go. */
    private record Unpark(Thread waiter) implements BiConsumer<Object, Throwable> {
        @Override
        public void accept(final Object value, final Throwable failure) {
            LockSupport.unpark(waiter);
        }
    }

    /**
     * Parks until there is an outcome or {@code deadline} ({@link System#nanoTime()}) comes. The outcome unparks
     * the waiter after it let go of this future's lock, so that the waiter, once running, need not wait for the lock
     * too (a monitor's notify would make it: a second wait for a core on a busy host).
     */
    private void park(final long deadline) {
        final Unpark wake = new Unpark(Thread.currentThread());
        if (!whenPending(wake)) {
            return;
        }
        try {
            while (value == PENDING) {
                if (deadline == NO_DEADLINE) {
                    LockSupport.park(this);
                } else {
                    final long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return;
                    }
                    LockSupport.parkNanos(this, left);
                }
                if (Thread.interrupted()) {
                    throw interrupted();
                }
            }
        } finally {
            if (value == PENDING) { // gave up: the outcome must not unpark this thread in some later wait
                synchronized (this) {
                    if (callbacks != null) {
                        callbacks.remove(wake);
                    }
                }
            }
        }
    }

    private WaitInterruptedException interrupted() {
        Thread.currentThread().interrupt();
        return new WaitInterruptedException("Interrupted while waiting for " + call() + "; the call goes on, and"
                + " its future still gets the outcome");
    }

    /** As {@link #await(Spin)}, giving up after {@code timeoutNanos}. */
    @Override
    public Object await(final Spin spin, final long timeoutNanos) {
        final long deadline = System.nanoTime() + timeoutNanos;
        if (!spin.spinThenYield(this, DONE, timeoutNanos)) {
            park(deadline);
        }
        if (value == PENDING) {
            throw new FutureTimeoutException(
                    "No result from " + call() + " within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
        }
        return outcome();
    }

    /** The value, or the failure thrown as it should be where the future is touched. */
    private Object outcome() {
        final Throwable f = failure;
        if (f == null) {
            return value;
        }
        if (f instanceof RuntimeException || f instanceof Error) {
            TouchedAt.addTo(f, call());
            if (f instanceof Error e) {
                throw e;
            }
            throw (RuntimeException) f;
        }
        // Made here, so its own stack trace is the caller's; the callee's is its cause's.
        throw new CallFailedException(call() + " threw " + f, f.getClass().getName(), f);
    }

    /** The failure, or null if there is none or no outcome yet. */
    @Override
    public Throwable failure() {
        return value == PENDING ? null : failure;
    }
}
