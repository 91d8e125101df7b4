package org.troupe.core.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.RejectedExecutionException;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;

/** A link over one Netty channel, after the handshake: message frames, heartbeats and the end of the link. */
final class TcpLink extends ChannelInboundHandlerAdapter implements Link {
    static final byte MESSAGE = 0;
    static final byte PING = 1;
    private static final int OUTBOUND_INITIAL_BYTES = 4096;
    private static final int DIRECT_WRITE_MAX_BYTES = 1 << 20;
    private static final byte[] NO_BYTES = new byte[0];

    private final Channel channel;
    private final String peerRuntimeId;
    private final String peerAddress;
    private final LinkHandler handler;
    private final long peerTimeoutMillis;
    private volatile String closeReason;
    /**
     * Guards writing: direct writes and the frames waiting for the event loop.
     */
    private final Object outbound = new Object();
    private ByteBuf outboundFrames;
    private boolean flushQueued;
    /** Frames handed to Netty and not yet written: while there are any, no direct write may overtake them. */
    private int queuedWrites;
    /** The channel, if its socket can be written to directly; else null. */
    private final DirectSocketChannel direct;
    private ByteBuffer directBuffer = ByteBuffer.allocateDirect(OUTBOUND_INITIAL_BYTES);
    /** Reused for every frame received: frames are handed over as arrays, valid during the handler's call. */
    private byte[] inbound = new byte[4096];

    TcpLink(final Channel channel, final String peerRuntimeId, final String peerAddress, final LinkHandler handler,
            final long peerTimeoutMillis) {
        this.channel = channel;
        this.peerRuntimeId = peerRuntimeId;
        this.peerAddress = peerAddress;
        this.handler = handler;
        this.peerTimeoutMillis = peerTimeoutMillis;
        this.direct = channel instanceof DirectSocketChannel d ? d : null;
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
    public void send(final byte[] frame, final int offset, final int length, final boolean batch) {
        write(MESSAGE, frame, offset, length, batch);
    }

    /**
     * Writes a frame: straight to the socket from this thread when nothing is queued before it and it is not to
     * be batched (a call whose caller waits), else behind what is queued, through the event loop. Frames queued
     * between two turns of the event loop go out as one write, so a burst of one-way calls costs a few system
     * calls, not one each.
     */
    private void write(final byte kind, final byte[] frame, final int offset, final int length,
                       final boolean batch) {
        if (!channel.isActive()) {
            throw new IllegalStateException("the link to " + peerRuntimeId + " at " + peerAddress + " is closed"
                + (closeReason == null ? "" : " (" + closeReason + ")"));
        }
        final boolean schedule;
        synchronized (outbound) {
            int written = -1;
            if (!batch && direct != null && outboundFrames == null && queuedWrites == 0) {
                written = writeDirect(kind, frame, offset, length);
                if (written == 5 + length) {
                    return;
                }
            }
            if (outboundFrames == null) {
                outboundFrames = channel.alloc().directBuffer(Math.max(OUTBOUND_INITIAL_BYTES, 5 + length));
            }
            if (written >= 0) { // the rest of a direct write the socket did not take whole
                outboundFrames.writeBytes(directBuffer);
            } else {
                outboundFrames.writeInt(length + 1).writeByte(kind).writeBytes(frame, offset, length);
            }
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

    /**
     * Writes what the socket takes now, without blocking; returns the bytes written, the frame staying in
     * {@link #directBuffer}; or -1 for a frame too large to try. Holds {@link #outbound}.
     */
    private int writeDirect(final byte kind, final byte[] frame, final int offset, final int length) {
        if (directBuffer.capacity() < 5 + length) {
            if (5 + length > DIRECT_WRITE_MAX_BYTES) {
                return -1; // a large frame: Netty's pooled buffers and its handling of a full socket are better
            }
            directBuffer = ByteBuffer.allocateDirect(Math.max(5 + length, directBuffer.capacity() * 2));
        }
        final ByteBuffer b = directBuffer.clear();
        b.putInt(length + 1).put(kind).put(frame, offset, length).flip();
        try {
            return direct.socket().write(b);
        } catch (IOException e) {
            close(e.toString());
            throw new IllegalStateException("the link to " + peerRuntimeId + " at " + peerAddress + " failed: "
                + e.getMessage(), e);
        }
    }

    /** On the event loop: hands every frame queued since the last flush to Netty at once, as one write. */
    private void flushOutbound() {
        final ByteBuf frames;
        synchronized (outbound) {
            frames = outboundFrames;
            outboundFrames = null;
            flushQueued = false;
            if (frames == null) {
                return;
            }
            queuedWrites++;
        }
        channel.writeAndFlush(frames).addListener(f -> {
            synchronized (outbound) {
                queuedWrites--;
            }
        });
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
                try {
                    write(PING, NO_BYTES, 0, 0, true);
                } catch (IllegalStateException closed) {
                    // The link ends anyway; channelInactive reports it.
                }
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
