package org.troupe.core.transport.tcp;

import static org.troupe.core.transport.tcp.FrameDescriptor.MESSAGE;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import java.nio.ByteBuffer;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;

/**
 * A link over one Netty channel, after the handshake: what composes its four jobs and answers for it as a
 * {@link Link}. Frames leave through its {@link OutboundPath} (straight to the socket from the sending thread when
 * nothing is queued before them), arrive through its {@link InboundFramer}, read by whoever its
 * {@link ReadOwnership} lets read (the event loop, or a thread spinning while it waits); its {@link Liveness} sends
 * heartbeats and closes it when the peer falls silent. Which thread does what is in the package's description.
 */
final class TcpLink extends ChannelInboundHandlerAdapter implements Link {
    private final DirectSocketChannel channel;
    private final String peerRuntimeId;
    private final String peerAddress;
    /** What this runtime announces to the peer, once it listens. */
    private volatile String localAddress;

    private final LinkHandler handler;
    private final TcpTransport transport;
    private volatile String closeReason;
    /**
     * Set by the first {@link #close}: the link is closed for its users from then on, though its channel closes on
     * the event loop, later when another thread closed it.
     */
    private volatile boolean closed;
    /** Frames written: straight to the socket, or queued for the event loop. */
    private final OutboundPath outbound;
    /** The bytes read and not yet handled, cut into frames; used by the thread that owns the reads. */
    private final InboundFramer framer;
    /** Heartbeats sent, and the peer's silence watched. */
    private final Liveness liveness;
    /** Who reads the socket, one thread at a time, and whether the event loop watches it. */
    private final ReadOwnership reads;
    /** From now on only the event loop reads this link ({@link TcpTransport#leaveToEventLoop}). */
    void leaveToEventLoop() {
        reads.leaveToEventLoop();
    }

    /** Whether both sides offered, in the handshake, to carry frames through shared memory. */
    private final boolean sharedMemory;

    TcpLink(
            final DirectSocketChannel channel,
            final String peerRuntimeId,
            final String peerAddress,
            final LinkHandler handler,
            final TcpTransport transport,
            final FrameMac sending,
            final FrameMac receiving,
            final boolean sharedMemory) {
        this.channel = channel;
        this.peerRuntimeId = peerRuntimeId;
        this.peerAddress = peerAddress;
        this.handler = handler;
        this.transport = transport;
        this.sharedMemory = sharedMemory;
        this.outbound = new OutboundPath(channel, this, transport.maxFrameBytes(), transport.peerTimeout(), sending);
        this.framer = new InboundFramer(this, handler, transport.maxFrameBytes(), receiving);
        this.liveness = new Liveness(
                this, outbound, channel, transport.timer(), transport.heartbeat(), transport.peerTimeout());
        this.reads = new ReadOwnership(channel, this, framer, outbound, liveness);
    }

    /** Once the link is in the pipeline: heartbeats, and the peer's silence watched ({@link Liveness}). */
    void start() {
        liveness.start();
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
        return !closed && channel.isActive();
    }

    @Override
    public void close(final String reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
        closed = true;
        channel.close();
    }

    /** A spinning waiter's read ({@link ReadOwnership#poll}); never blocks. */
    void poll() {
        reads.poll();
    }

    /** Any thread: the event loop watches the socket again (a waiter parks, so it will not read). */
    void watchAgain() {
        reads.watchAgain();
    }

    /** Whether both sides offered, in the handshake, to carry this link's frames through shared memory. */
    boolean sharedMemory() {
        return sharedMemory;
    }

    /** Why the link was closed, by the first to close it; null while it is open. */
    String closeReason() {
        return closeReason;
    }

    /** Who reads the link: the channel's event loop reads through it, and so does the liveness check. */
    ReadOwnership reads() {
        return reads;
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
    EventLoop eventLoop() {
        return channel.eventLoop();
    }

    /** For tests: the room the link holds for bytes read and not yet handled. */
    int inboundCapacity() {
        return framer.capacity();
    }

    /** The bytes that followed the handshake in the same read, passed on when the handshake's decoder left. */
    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg) {
        reads.readHandedOver((ByteBuf) msg);
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
        framer.release();
        handler.closed(this, closeReason == null ? "connection closed" : closeReason);
    }

    @Override
    public String toString() {
        return "link to " + peerRuntimeId + " at " + peerAddress;
    }
}
