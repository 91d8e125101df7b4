package org.troupe.core.transport.tcp;

import static org.troupe.core.transport.tcp.FrameDescriptor.MESSAGE;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.troupe.core.spi.Progress;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;

/**
 * A link over one Netty channel, after the handshake: message frames, heartbeats and the end of the link.
 *
 * <p>Writes go straight to the socket from the sending thread when nothing is queued before them. Reads are done
 * by whoever gets there first, one at a time: the event loop when the socket becomes readable, or a thread that
 * spins while it waits for a reply or a request ({@link #poll()}), which then handles the frame itself instead of
 * waiting for the event loop to be scheduled.
 */
final class TcpLink extends ChannelInboundHandlerAdapter implements Link {
    /** When an unwatched socket first and at most checks whether anyone still reads it; see watchIfNobodySpins. */
    private static final long UNWATCHED_FIRST_CHECK_NANOS = 1_000_000;
    private static final long UNWATCHED_LAST_CHECK_NANOS = 32_000_000;

    private final DirectSocketChannel channel;
    private final String peerRuntimeId;
    private final String peerAddress;
    /** What this runtime announces to the peer, once it listens. */
    private volatile String localAddress;
    private final LinkHandler handler;
    private final TcpTransport transport;
    private volatile String closeReason;
    /** Frames written: straight to the socket, or queued for the event loop. */
    private final OutboundPath outbound;
    /** Held by the one thread reading the socket; {@link #framer} is guarded by it. */
    private final ReentrantLock reading = new ReentrantLock();
    /** The bytes read and not yet handled, cut into frames; guarded by {@link #reading}. */
    private final InboundFramer framer;
    /** Heartbeats sent, and the peer's silence watched. */
    private final Liveness liveness;

    TcpLink(final DirectSocketChannel channel, final String peerRuntimeId, final String peerAddress,
            final LinkHandler handler, final TcpTransport transport, final FrameMac sending,
            final FrameMac receiving) {
        this.channel = channel;
        this.peerRuntimeId = peerRuntimeId;
        this.peerAddress = peerAddress;
        this.handler = handler;
        this.transport = transport;
        this.outbound = new OutboundPath(channel, this, transport.maxFrameBytes(), transport.peerTimeout(), sending);
        this.framer = new InboundFramer(this, handler, transport.maxFrameBytes(), receiving);
        this.liveness = new Liveness(this, outbound, channel, transport.timer(), transport.heartbeat(),
            transport.peerTimeout());
    }

    /** Once the link is in the pipeline: heartbeats, and the peer's silence watched ({@link Liveness}). */
    void start() {
        liveness.start();
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
                close("connection closed by the peer");
                return false;
            }
        } catch (IOException | RuntimeException | Error e) {
            close(e.toString());
            return false;
        } finally {
            reading.unlock();
        }
        return true;
    }

    @Override
    public String peerRuntimeId() {
        return peerRuntimeId;
    }

    @Override
    public String peerAddress() {
        return peerAddress;
    }

    @Override
    public String localAddress() {
        final String known = localAddress;
        if (known != null) {
            return known;
        }
        final String now = transport.announcedOn(channel);
        if (!now.isEmpty()) { // fixed once the runtime listens; until then it may start to
            localAddress = now;
        }
        return now;
    }

    @Override
    public void send(final byte[] frame, final int offset, final int length, final boolean batch) {
        outbound.write(MESSAGE, frame, offset, length, null, batch);
    }

    @Override
    public void send(final byte[] head, final int headLength, final ByteBuffer tail, final boolean batch) {
        outbound.write(MESSAGE, head, 0, headLength, tail, batch);
    }

    @Override
    public boolean isOpen() {
        return channel.isActive();
    }

    @Override
    public void close(final String reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
        channel.close();
    }

    /**
     * Reads what has arrived, if no other thread is reading this link, and handles the whole frames; never blocks.
     * A thread already reading (a frame's handler that waits, and so polls) does not read again inside itself.
     */
    void poll() {
        if (reading.isHeldByCurrentThread() || !reading.tryLock()) {
            return;
        }
        try {
            if (readSocket() < 0) {
                close("connection closed by the peer");
            }
        } catch (IOException | RuntimeException | Error e) { // as the event loop's read does; not the waiter's
            close(e.toString());
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
        if (Progress.someoneSpins()) {
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
        // Read after the flag is written, as a parking waiter reads the flag after it stops spinning: one of the
        // two sees the other, so the socket is never left unwatched with nobody spinning.
        if (!Progress.someoneSpins()) {
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

    /** Why the link was closed, by the first to close it; null while it is open. */
    String closeReason() {
        return closeReason;
    }

    /** For tests: the link's channel. */
    DirectSocketChannel channel() {
        return channel;
    }

    /** For tests: the link's outbound path. */
    OutboundPath outbound() {
        return outbound;
    }

    /** For tests: the event loop this link's channel belongs to. */
    io.netty.channel.EventLoop eventLoop() {
        return channel.eventLoop();
    }

    /** For tests: the room the link holds for bytes read and not yet handled. */
    int inboundCapacity() {
        return framer.capacity();
    }

    /** The bytes that followed the handshake in the same read, passed on when the handshake's decoder left. */
    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg) {
        final ByteBuf bytes = (ByteBuf) msg;
        reading.lock();
        try {
            framer.append(bytes);
            liveness.heard();
            framer.handleFrames();
        } catch (RuntimeException e) {
            close(e.toString());
        } finally {
            reading.unlock();
            bytes.release();
        }
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause) {
        close(String.valueOf(cause));
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) {
        liveness.stop();
        transport.removed(this);
        outbound.release();
        handler.closed(this, closeReason == null ? "connection closed" : closeReason);
    }

    @Override
    public String toString() {
        return "link to " + peerRuntimeId + " at " + peerAddress;
    }
}
