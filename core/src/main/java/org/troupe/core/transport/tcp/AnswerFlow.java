package org.troupe.core.transport.tcp;

/**
 * The answers' flow control of a link's outbound path: counts the bytes of answers (frames that handlers sent, which
 * cannot wait for room) queued and handed to Netty, and holds the link's reading back while too many of them wait
 * to leave, until half of them have.
 *
 * <p>Thread-safe through the {@link OutboundPath}'s lock, which every method but {@link #holdReads} and
 * {@link #readsHeld} requires its caller to hold: the event loop (its flushes and their completions), a sender that
 * writes the queue itself, and the reading thread ({@link #holdReads}, which takes the lock).
 */
final class AnswerFlow {
    private final Object lock;
    /** Bytes of answers queued for the event loop; guarded by lock. */
    private long queued;
    /** Bytes of answers handed to Netty and not yet written; guarded by lock. */
    private long inFlight;
    /** Set while reading waits for answers to leave ({@link #holdReads}); written under lock. */
    private volatile boolean readsHeld;

    /** @param lock the outbound path's lock, which guards the counts */
    AnswerFlow(final Object lock) {
        this.lock = lock;
    }

    /** An answer of {@code bytes} was queued for the event loop. Holds lock. */
    void queued(final long bytes) {
        queued += bytes;
    }

    /** The sending thread wrote the whole queue itself: no answer waits in it. Holds lock. */
    void queueWritten() {
        queued = 0;
    }

    /** The queue is handed to Netty: returns the answers' bytes in it, in flight until {@link #written}. Holds lock. */
    long handedOver() {
        final long answers = queued;
        queued = 0;
        inFlight += answers;
        return answers;
    }

    /** Netty wrote (or dropped) a queue that held {@code answers} bytes of answers. Holds lock. */
    void written(final long answers) {
        inFlight -= answers;
    }

    /**
     * Whether reading, held back for the answers queued ({@link #holdReads}), may resume now that enough of them
     * have left; it is then no longer held, and the caller turns reading on once outside the lock. Holds lock.
     */
    boolean answersLeft() {
        final boolean resume = readsHeld && queued + inFlight < OutboundPath.MAX_PENDING_BYTES / 2;
        readsHeld &= !resume;
        return resume;
    }

    /**
     * Whether reading this link must wait: the answers its frames' handlers sent (an echo, say, from the event
     * loop, which cannot wait for room) pile up unwritten, because the peer sends faster than it reads them. Then
     * nothing more is read until half of them have left, and the peer is held back by the socket instead of this
     * JVM queueing without bound. Only answers count: what other threads send waits for room itself.
     */
    boolean holdReads() {
        synchronized (lock) {
            if (queued + inFlight <= OutboundPath.MAX_PENDING_BYTES) {
                return false;
            }
            readsHeld = true;
        }
        return true;
    }

    /** Whether reading waits for the answers queued to leave. */
    boolean readsHeld() {
        return readsHeld;
    }
}
