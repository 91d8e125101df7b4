package org.troupe.tests.core;

import java.lang.ref.Reference;
import java.util.concurrent.CompletableFuture;
import org.troupe.core.service.Immediate;

/** An active class for the multi-JVM tests; every instance lives in the JVM it was created in. */
public class Worker {
    private int total;
    private volatile int served;

    public Worker() {}

    public Worker(final int start) {
        this.total = start;
    }

    public void add(final int n) {
        total += n;
        served++;
    }

    public Result total() {
        served++;
        return new Result(total, pid());
    }

    public long pid() {
        return ProcessHandle.current().pid();
    }

    public Result compute(final int x) {
        served++;
        return new Result(x * x, pid());
    }

    /** Waits, then answers: a long call. */
    public Result slow(final int x, final long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        served++;
        return new Result(x, pid());
    }

    /** As {@link #slow}, its caller getting a {@code CompletableFuture}. */
    public CompletableFuture<Long> slowFuture(final int x, final long millis) {
        return CompletableFuture.completedFuture((long) slow(x, millis).value());
    }

    /** Touches both arguments, which may be futures still awaited when the call was made. */
    public Result sum(final Result a, final Result b) {
        served++;
        return new Result(a.value() + b.value(), pid());
    }

    /** Asks another active object and returns its (future) answer as its own. */
    public Result relay(final Worker other, final int x) {
        served++;
        return other.compute(x);
    }

    public byte[] bytes(final int mib) {
        return new byte[mib << 20];
    }

    /**
     * Asks {@code other} for {@code mib} MiB while holding {@code ballastMib} MiB of this JVM's heap, so that the
     * reply fits as a frame but cannot be read into its array.
     */
    public int lengthFrom(final Worker other, final int mib, final int ballastMib) {
        final byte[] ballast = new byte[ballastMib << 20];
        try {
            return other.bytes(mib).length;
        } finally {
            Reference.reachabilityFence(ballast);
        }
    }

    public Result fail(final String message) {
        throw new IllegalStateException(message);
    }

    @Immediate
    public int served() {
        return served;
    }
}
