package org.troupe.core.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.concurrent.RejectedExecutionException;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;

/** A link over one Netty channel, after the handshake: message frames, heartbeats and the end of the link. */
final class TcpLink extends ChannelInboundHandlerAdapter implements Link {
    static final byte MESSAGE = 0;
    static final byte PING = 1;
    private static final int OUTBOUND_INITIAL_BYTES = 4096;

    private final Channel channel;
    private final String peerRuntimeId;
    private final String peerAddress;
    private final LinkHandler handler;
    private final long peerTimeoutMillis;
    private volatile String closeReason;
    /**
     * Frames sent and not yet handed to Netty, guarded by {@link #outbound}. Senders append here and at most one
     * flush task is queued on the event loop, so a burst of one-way calls costs one task and one write, not one
     * each.
     */
    private final Object outbound = new Object();
    private ByteBuf outboundFrames;
    private boolean flushQueued;
    /** Reused for every frame received: frames are handed over as arrays, valid during the handler's call. */
    private byte[] inbound = new byte[4096];

    TcpLink(final Channel channel, final String peerRuntimeId, final String peerAddress, final LinkHandler handler,
            final long peerTimeoutMillis) {
        this.channel = channel;
        this.peerRuntimeId = peerRuntimeId;
        this.peerAddress = peerAddress;
        this.handler = handler;
        this.peerTimeoutMillis = peerTimeoutMillis;
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
    public void send(final byte[] frame, final int offset, final int length) {
        if (!channel.isActive()) {
            throw new IllegalStateException("the link to " + peerRuntimeId + " at " + peerAddress + " is closed"
                + (closeReason == null ? "" : " (" + closeReason + ")"));
        }
        final boolean schedule;
        synchronized (outbound) {
            if (outboundFrames == null) {
                outboundFrames = channel.alloc().directBuffer(Math.max(OUTBOUND_INITIAL_BYTES, 5 + length));
            }
            outboundFrames.writeInt(length + 1).writeByte(MESSAGE).writeBytes(frame, offset, length);
            schedule = !flushQueued;
            flushQueued = true;
        }
        if (schedule) {
            try {
                channel.eventLoop().execute(this::flushOutbound);
            } catch (RejectedExecutionException e) {
                throw new IllegalStateException("the link to " + peerRuntimeId + " at " + peerAddress
                    + " is closed (its transport stopped)", e);
            }
        }
    }

    /** On the event loop: hands every frame sent since the last flush to Netty at once, as one write. */
    private void flushOutbound() {
        final ByteBuf frames;
        synchronized (outbound) {
            frames = outboundFrames;
            outboundFrames = null;
            flushQueued = false;
        }
        if (frames != null) {
            channel.writeAndFlush(frames, channel.voidPromise());
        }
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

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg) {
        final ByteBuf frame = (ByteBuf) msg;
        try {
            if (frame.readableBytes() == 0) {
                return;
            }
            final byte kind = frame.readByte();
            if (kind != MESSAGE) {
                return; // a heartbeat: its arrival is all that matters
            }
            final int length = frame.readableBytes();
            if (inbound.length < length) {
                inbound = new byte[Math.max(length, inbound.length * 2)];
            }
            frame.readBytes(inbound, 0, length);
            handler.received(this, inbound, length);
            if (inbound.length > (1 << 20) && length < (1 << 16)) {
                inbound = new byte[4096]; // do not keep a large buffer for small traffic
            }
        } finally {
            frame.release();
        }
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt) {
        if (evt instanceof IdleStateEvent idle) {
            if (idle.state() == IdleState.WRITER_IDLE) {
                final ByteBuf ping = ctx.alloc().directBuffer(5);
                ping.writeInt(1).writeByte(PING);
                ctx.writeAndFlush(ping, ctx.voidPromise());
            } else if (idle.state() == IdleState.READER_IDLE) {
                close("nothing heard from it for " + peerTimeoutMillis + " ms");
            }
        }
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause) {
        close(String.valueOf(cause));
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) {
        synchronized (outbound) {
            if (outboundFrames != null) {
                outboundFrames.release();
                outboundFrames = null;
            }
        }
        handler.closed(this, closeReason == null ? "connection closed" : closeReason);
    }

    @Override
    public String toString() {
        return "link to " + peerRuntimeId + " at " + peerAddress;
    }
}
