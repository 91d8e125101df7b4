package org.troupe.core.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Splits the byte stream into frames ({@code int length, bytes}). The largest frame accepted is small until the
 * handshake succeeds, so a stranger cannot make us buffer a large one, and the configured maximum after.
 */
final class FrameDecoder extends ByteToMessageDecoder {
    private int maxFrame;

    FrameDecoder(final int maxFrame) {
        this.maxFrame = maxFrame;
    }

    void maxFrame(final int bytes) {
        this.maxFrame = bytes;
    }

    @Override
    protected void decode(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> out) {
        while (in.readableBytes() >= 4) {
            final int length = in.getInt(in.readerIndex());
            if (length < 0 || length > maxFrame) {
                throw new TooLongFrameException("frame of " + length + " bytes announced; at most " + maxFrame
                    + " are accepted here");
            }
            if (in.readableBytes() < 4 + length) {
                return;
            }
            in.skipBytes(4);
            out.add(in.readRetainedSlice(length));
        }
    }
}
