package org.troupe.core.transport.tcp;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.troupe.core.spi.Progress;
import org.troupe.core.transport.Link;

/**
 * Who reads a link's socket: whoever gets there first, one at a time ({@link #reading}): the event loop when the
 * socket becomes readable ({@link #readFromEventLoop}), or a thread that spins while it waits for a reply or a
 * request ({@link #poll}), which then handles the frame itself instead of waiting for the event loop to be
 * scheduled. While threads spin, the event loop stops watching the socket (Netty's {@code autoRead} turned off),
 * and watches it again when a waiter parks or nobody has spun for a while; see the package's description.
 */
final class ReadOwnership {
    /** When an unwatched socket first and at most checks whether anyone still reads it; see watchIfNobodySpins. */
    private static final long UNWATCHED_FIRST_CHECK_NANOS = 1_000_000;

    private static final long UNWATCHED_LAST_CHECK_NANOS = 32_000_000;

    private final DirectSocketChannel channel;
    private final Link link;
    /** Held by the one thread reading the socket; {@link #framer} is guarded by it. */
    private final ReentrantLock reading = new ReentrantLock();

    private final InboundFramer framer;
    /** Says when reads must wait for the answers queued to leave. */
    private final OutboundPath outbound;

    private final Liveness liveness;
    /** Whether spinners no longer read this link, so the event loop must always watch it. */
    private volatile boolean eventLoopOnly;

    /** @param link what closes when the socket ends or fails, or a frame read does */
    ReadOwnership(
            final DirectSocketChannel channel,
            final Link link,
            final InboundFramer framer,
            final OutboundPath outbound,
            final Liveness liveness) {
        this.channel = channel;
        this.link = link;
        this.framer = framer;
        this.outbound = outbound;
        this.liveness = liveness;
    }

    /**
     * Reads what has arrived, if no other thread is reading this link, and handles the whole frames; never blocks.
     * A thread already reading (a frame's handler that waits, and so polls) does not read again inside itself. Called
     * by spinning waiters, on every step of their spin ({@link TcpTransport}'s {@link Progress.Poller}).
     */
    void poll() {
        if (reading.isHeldByCurrentThread() || !reading.tryLock()) {
            return;
        }
        try {
            if (readSocket() < 0) {
                link.close("connection closed by the peer");
            }
        } catch (IOException | RuntimeException | Error e) { // as the event loop's read does; not the waiter's
            link.close(e.toString());
        } finally {
            reading.unlock();
        }
    }

    /**
     * The event loop's read when the socket is readable: 0 to Netty (we handled the bytes), -1 at the end.
     *
     * <p>While a thread spins, it reads this socket itself, and the event loop would only be woken for every frame
     * to find it read already (or, finding the reader's lock held, be woken again and again until the spinner
     * drains the socket, taking a core from it): so the event loop stops watching the socket, until a waiter parks
     * ({@link #watchAgain}) or nobody has spun for a while ({@link #watchIfNobodySpins}).
     */
    int readFromEventLoop() throws IOException {
        if (reading.isHeldByCurrentThread()) {
            return 0;
        }
        if (!eventLoopOnly && Progress.someoneSpins()) {
            stopWatching();
        }
        if (!reading.tryLock()) {
            return 0; // another thread is reading; the socket stays readable if it leaves anything
        }
        try {
            return readSocket() < 0 ? -1 : 0;
        } finally {
            reading.unlock();
        }
    }

    /** On the event loop: no more read events for this socket while a spinner reads it. */
    private void stopWatching() {
        if (!channel.config().isAutoRead()) {
            return;
        }
        channel.config().setAutoRead(false);
        // Read after the flag is written, as a parking waiter reads the flag after it stops spinning (and as
        // leaveToEventLoop writes its own before it reads this flag): one of the two sees the other, so the socket is
        // never left unwatched with nobody to read it.
        if (eventLoopOnly || !Progress.someoneSpins()) {
            channel.config().setAutoRead(true);
            return;
        }
        checkUnwatchedIn(UNWATCHED_FIRST_CHECK_NANOS);
    }

    private void checkUnwatchedIn(final long nanos) {
        channel.eventLoop().schedule(() -> watchIfNobodySpins(nanos), nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * On the event loop, while the socket is unwatched: watches it again once nobody has spun since the last
     * check. A spinner that got its reply and went on computing leaves the socket to nobody; frames nobody waits
     * for (a request for a busy object, a reply not yet touched) then wait until this check. While threads keep
     * spinning, checks grow rarer, up to {@link #UNWATCHED_LAST_CHECK_NANOS} apart: each wakes the event loop,
     * which on a small machine takes a core from a spinner for a while.
     */
    private void watchIfNobodySpins(final long sinceNanos) {
        if (channel.config().isAutoRead() || !channel.isActive()) {
            return;
        }
        if (Progress.spunWithin(sinceNanos)) {
            checkUnwatchedIn(Math.min(2 * sinceNanos, UNWATCHED_LAST_CHECK_NANOS));
        } else {
            channel.config().setAutoRead(true);
        }
    }

    /** Any thread: spinners no longer read this link; the event loop watches it for good. */
    void leaveToEventLoop() {
        eventLoopOnly = true;
        watchAgain();
    }

    /** Any thread: the event loop watches the socket again (a waiter parks, so it will not read). */
    void watchAgain() {
        if (!channel.config().isAutoRead()) {
            channel.config().setAutoRead(true);
        }
    }

    /** Reads until the socket has nothing more, handling each whole frame; -1 once the peer has closed. */
    private int readSocket() throws IOException {
        int total = 0;
        while (true) {
            if (outbound.readsHeld() || outbound.holdReads()) {
                if (channel.eventLoop().inEventLoop()) {
                    channel.config().setAutoRead(false); // no read events meanwhile: the socket stays readable
                }
                return total;
            }
            final int n = framer.read(channel.socket());
            if (n < 0) {
                return -1;
            }
            if (n == 0) {
                return total;
            }
            total += n;
            liveness.heard();
            framer.handleFrames();
        }
    }

    /**
     * For the liveness check, on the event loop: reads what the socket holds unless another thread reads it; false
     * if one does (the peer is not blamed for what nobody could read), or if the link closed for what was read.
     */
    boolean readForSilenceCheck() {
        if (!reading.tryLock()) {
            return false;
        }
        try {
            if (readSocket() < 0) {
                link.close("connection closed by the peer");
                return false;
            }
        } catch (IOException | RuntimeException | Error e) {
            link.close(e.toString());
            return false;
        } finally {
            reading.unlock();
        }
        return true;
    }

    /**
     * On the event loop, once: the bytes that followed the handshake in the same read, passed on when the
     * handshake's decoder left; released here.
     */
    void readHandedOver(final ByteBuf bytes) {
        reading.lock();
        try {
            framer.append(bytes);
            liveness.heard();
            framer.handleFrames();
        } catch (RuntimeException e) {
            link.close(e.toString());
        } finally {
            reading.unlock();
            bytes.release();
        }
    }
}
