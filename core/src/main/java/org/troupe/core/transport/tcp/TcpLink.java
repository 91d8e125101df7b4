package org.troupe.core.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;

/** A link over one Netty channel, after the handshake: message frames, heartbeats and the end of the link. */
final class TcpLink extends ChannelInboundHandlerAdapter implements Link {
    static final byte MESSAGE = 0;
    static final byte PING = 1;

    private final Channel channel;
    private final String peerRuntimeId;
    private final String peerAddress;
    private final LinkHandler handler;
    private final long peerTimeoutMillis;
    private volatile String closeReason;
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
        final ByteBuf buf = channel.alloc().directBuffer(5 + length);
        buf.writeInt(length + 1).writeByte(MESSAGE).writeBytes(frame, offset, length);
        channel.writeAndFlush(buf, channel.voidPromise());
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
        handler.closed(this, closeReason == null ? "connection closed" : closeReason);
    }

    @Override
    public String toString() {
        return "link to " + peerRuntimeId + " at " + peerAddress;
    }
}
