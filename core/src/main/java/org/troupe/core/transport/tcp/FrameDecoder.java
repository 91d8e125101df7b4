package org.troupe.core.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Splits the handshake's byte stream into frames ({@link FrameDescriptor}: the length, then the kind and the bytes
 * it counts, handed on without the length), small ones only, so that a stranger cannot make us buffer a large one.
 * One frame per read, so that when the handshake ends and the decoder is removed, what follows reaches the
 * {@link TcpLink} as bytes.
 */
final class FrameDecoder extends ByteToMessageDecoder {
    private final int maxFrame;

    FrameDecoder(final int maxFrame) {
        this.maxFrame = maxFrame;
        setSingleDecode(true);
    }

    @Override
    protected void decode(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> out) {
        if (in.readableBytes() < FrameDescriptor.LENGTH_BYTES) {
            return;
        }
        final int length = in.getInt(in.readerIndex() + FrameDescriptor.LENGTH_OFFSET);
        if (length < 0 || length > maxFrame) {
            throw new TooLongFrameException(
                    "handshake frame of " + length + " bytes announced; at most " + maxFrame + " are accepted");
        }
        if (in.readableBytes() < FrameDescriptor.framedLength(length)) {
            return;
        }
        in.skipBytes(FrameDescriptor.LENGTH_BYTES);
        out.add(in.readRetainedSlice(length));
    }
}
