package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.TooLongFrameException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The handshake's frame decoder, fed bytes the way a socket may deliver them. */
class FrameDecoderTest {
    private static final int MAX = 16;
    private final EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX));

    @AfterEach
    void finish() {
        channel.finishAndReleaseAll();
    }

    private static ByteBuf bytes(final int... values) {
        final ByteBuf b = Unpooled.buffer();
        for (final int v : values) {
            b.writeByte(v);
        }
        return b;
    }

    private static ByteBuf frame(final byte... body) {
        return Unpooled.buffer().writeInt(body.length).writeBytes(body);
    }

    /** The bytes of a decoded frame, which is released: whoever reads a frame owns it. */
    private byte[] readFrame() {
        final ByteBuf frame = channel.readInbound();
        if (frame == null) {
            return null;
        }
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    @Test
    void shouldWaitForTheRestOfAFrameSplitAcrossReads() {
        assertFalse(channel.writeInbound(bytes(0, 0)), "half a length");
        assertFalse(channel.writeInbound(bytes(0, 3, 'a')), "a length and part of the body");
        assertFalse(channel.writeInbound(bytes('b')));
        assertTrue(channel.writeInbound(bytes('c')));
        assertArrayEquals(new byte[] {'a', 'b', 'c'}, readFrame());
        assertNull(readFrame());
    }

    /**
     * One frame per read: the handshake removes the decoder after its last frame, and what came behind it in the
     * same read must then go on as bytes, not as a frame.
     */
    @Test
    void shouldHandOnOneFramePerReadAndTheRestAsBytesWhenRemoved() {
        final ByteBuf two = frame((byte) 1, (byte) 2).writeBytes(frame((byte) 3));
        assertTrue(channel.writeInbound(two));
        assertArrayEquals(new byte[] {1, 2}, readFrame());
        assertNull(readFrame(), "the second frame waits");
        channel.pipeline().removeFirst();
        assertArrayEquals(new byte[] {0, 0, 0, 1, 3}, readFrame(), "the rest, length and all, as bytes");
    }

    @Test
    void shouldDecodeAFrameLeftOverFromAnEarlierReadOnTheNextOne() {
        assertTrue(channel.writeInbound(frame((byte) 1).writeBytes(frame((byte) 2))));
        assertArrayEquals(new byte[] {1}, readFrame());
        assertTrue(channel.writeInbound(Unpooled.EMPTY_BUFFER));
        assertArrayEquals(new byte[] {2}, readFrame());
    }

    @Test
    void shouldAcceptAFrameOfTheLimitAndAnEmptyOne() {
        assertTrue(channel.writeInbound(frame(new byte[MAX])));
        assertEquals(MAX, readFrame().length);
        assertTrue(channel.writeInbound(frame()));
        assertArrayEquals(new byte[0], readFrame(), "the handshake, not the decoder, refuses an empty frame");
    }

    /** The length alone is enough to refuse: the body is never waited for, nor buffered. */
    @Test
    void shouldRefuseALengthOverTheLimitBeforeItsBodyArrives() {
        final TooLongFrameException e = assertThrows(
                TooLongFrameException.class,
                () -> channel.writeInbound(Unpooled.buffer().writeInt(MAX + 1)));
        assertTrue(
                e.getMessage().contains((MAX + 1) + " bytes") && e.getMessage().contains("at most " + MAX),
                e.getMessage());
        assertNull(readFrame());
        assertThrows(TooLongFrameException.class, channel::finishAndReleaseAll, "and again when the channel ends");
    }

    @Test
    void shouldRefuseANegativeLength() {
        final TooLongFrameException e = assertThrows(
                TooLongFrameException.class,
                () -> channel.writeInbound(Unpooled.buffer().writeInt(-1).writeBytes(new byte[8])));
        assertTrue(e.getMessage().contains("-1 bytes"), e.getMessage());
        assertNull(readFrame());
        assertThrows(TooLongFrameException.class, channel::finishAndReleaseAll, "and again when the channel ends");
    }
}
