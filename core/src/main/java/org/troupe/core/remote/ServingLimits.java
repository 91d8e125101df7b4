package org.troupe.core.remote;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * How much one peer may have this runtime serve at once: requests waiting in the queues of this JVM's active
 * objects (a count and their bytes), and immediate calls and creations running on threads of their own. A peer
 * that goes past a limit has its link closed ({@code overloaded} is told why): a peer that sends faster than the
 * objects it calls can serve, for ever, would otherwise fill this JVM's memory or threads. One per {@link Peer};
 * {@link RequestDispatcher} counts on the thread that reads the link, a request's leaving is counted on whichever
 * thread serves or refuses it.
 */
final class ServingLimits {
    /** At most this many immediate calls and creations a peer may have running here at once, each on a thread. */
    static final int MAX_RUNNING = 1_024;
    /** At most this many of a peer's requests may wait in the queues of this JVM's active objects... */
    static final int MAX_QUEUED_REQUESTS = 1_000_000;
    /** ...and at most this many bytes of them, as they came: a quarter of the heap, or 64 MiB if that is more. */
    static final long MAX_QUEUED_BYTES =
            Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 4);

    private final int maxRunning;
    private final int maxQueuedRequests;
    private final long maxQueuedBytes;
    /** Closes the peer's link, saying why. */
    private final Consumer<String> overloaded;
    /** The immediate calls and creations of this peer running here. */
    private final AtomicInteger running = new AtomicInteger();
    /** This peer's requests waiting in queues here, and their bytes. */
    private final AtomicInteger queuedRequests = new AtomicInteger();

    private final AtomicLong queuedBytes = new AtomicLong();

    ServingLimits(final Consumer<String> overloaded) {
        this(MAX_RUNNING, MAX_QUEUED_REQUESTS, MAX_QUEUED_BYTES, overloaded);
    }

    /** With other limits than the defaults: for tests. */
    ServingLimits(
            final int maxRunning,
            final int maxQueuedRequests,
            final long maxQueuedBytes,
            final Consumer<String> overloaded) {
        this.maxRunning = maxRunning;
        this.maxQueuedRequests = maxQueuedRequests;
        this.maxQueuedBytes = maxQueuedBytes;
        this.overloaded = overloaded;
    }

    /**
     * Counts a request of {@code bytes} about to be queued here; false, counting nothing and closing the link, if
     * the peer would have more than the most requests or bytes waiting.
     */
    boolean queuing(final long bytes) {
        final int requests = queuedRequests.incrementAndGet();
        final long all = queuedBytes.addAndGet(bytes);
        if (requests <= maxQueuedRequests && all <= maxQueuedBytes) {
            return true;
        }
        unqueued(bytes);
        overloaded.accept("it had more than "
                + (requests > maxQueuedRequests
                        ? maxQueuedRequests + " requests"
                        : (maxQueuedBytes >> 20) + " MiB of requests")
                + " waiting to be served here");
        return false;
    }

    /** A request counted by {@link #queuing} left its queue. */
    void unqueued(final long bytes) {
        queuedRequests.decrementAndGet();
        queuedBytes.addAndGet(-bytes);
    }

    /**
     * Runs {@code task} (an immediate call, a creation) on a virtual thread of its own; closes the link instead when
     * the peer already has the most of them running here.
     */
    void runOnItsOwnThread(final Runnable task) {
        if (running.incrementAndGet() > maxRunning) {
            running.decrementAndGet();
            overloaded.accept(
                    "it had more than " + maxRunning + " immediate calls and creations running here at" + " once");
            return;
        }
        Thread.ofVirtual().start(() -> {
            try {
                task.run();
            } finally {
                running.decrementAndGet();
            }
        });
    }
}
