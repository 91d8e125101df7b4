package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import org.junit.jupiter.api.Test;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;
import org.troupe.core.transport.ReceiveBudget;

/** The inbound framer on its own, without sockets: bytes in, frames out to the handler, in any cut. */
class InboundFramerTest {
    private static final int MAX = 1 << 20;
    private final TcpTransportTest.Recorder handler = new TcpTransportTest.Recorder();
    private final ClosingLink link = new ClosingLink();
    private final InboundFramer framer = new InboundFramer(link, handler, MAX, null);

    @Test
    void shouldHandOverEachMessageAndSkipHeartbeats() throws Exception {
        final ByteBuffer bytes = ByteBuffer.allocate(64)
                .put(frame(FrameDescriptor.MESSAGE, new byte[] {1, 2}))
                .put(frame(FrameDescriptor.PING, new byte[0]))
                .put(frame(FrameDescriptor.MESSAGE, new byte[] {3}))
                .flip();
        assertEquals(bytes.remaining(), framer.read(new Source(bytes)));
        framer.handleFrames();

        assertArrayEquals(new byte[] {1, 2}, handler.frames.poll());
        assertArrayEquals(new byte[] {3}, handler.frames.poll());
        assertNull(handler.frames.poll(), "a heartbeat is not handed over");
    }

    @Test
    void shouldKeepAFrameCutAnywhereUntilTheRestOfItComes() {
        final byte[] whole = frame(FrameDescriptor.MESSAGE, new byte[] {4, 5, 6, 7});
        for (int cut = 1; cut < whole.length; cut++) {
            final ByteBuf first = Unpooled.wrappedBuffer(whole, 0, cut);
            framer.append(first);
            framer.handleFrames();
            assertNull(handler.frames.poll(), "nothing handed over after " + cut + " bytes");
            framer.append(Unpooled.wrappedBuffer(whole, cut, whole.length - cut));
            framer.handleFrames();
            assertArrayEquals(new byte[] {4, 5, 6, 7}, handler.frames.poll(), "cut after " + cut + " bytes");
        }
    }

    @Test
    void shouldRefuseAFrameAnnouncedLargerThanTheLimit() {
        framer.append(Unpooled.wrappedBuffer(ByteBuffer.allocate(5)
                .putInt(MAX + 1)
                .put(FrameDescriptor.MESSAGE)
                .flip()));
        final IllegalStateException e = assertThrows(IllegalStateException.class, framer::handleFrames);
        assertTrue(e.getMessage().contains("frame of " + (MAX + 1) + " bytes announced"), e.getMessage());
    }

    @Test
    void shouldGrowOnlyAsALargeFramesBytesArrive() throws Exception {
        final int payload = 200_000;
        final ByteBuffer start = ByteBuffer.allocate(1_000)
                .putInt(FrameDescriptor.lengthField(payload, 0))
                .put(FrameDescriptor.MESSAGE)
                .flip();
        framer.read(new Source(start));
        framer.handleFrames();
        assertEquals(InboundFramer.INITIAL_BYTES, framer.capacity(), "room is not given for bytes not yet here");
    }

    /**
     * A read never offers the socket more than {@link InboundFramer#READ_BYTES} of room, however large the frame
     * coming: the JDK reads a heap buffer through a direct one of that room, which it keeps for the reading thread.
     */
    @Test
    void shouldOfferTheSocketAtMostAMebibyteARead() throws Exception {
        final byte[] payload = new byte[3 * InboundFramer.READ_BYTES];
        Arrays.fill(payload, (byte) 7);
        final InboundFramer large = new InboundFramer(link, handler, 4 * InboundFramer.READ_BYTES, null);
        final List<Integer> offered = new ArrayList<>();
        final Source all = new Source(ByteBuffer.wrap(frame(FrameDescriptor.MESSAGE, payload)));
        final ReadableByteChannel watched = new ReadableByteChannel() {
            @Override
            public int read(final ByteBuffer into) {
                offered.add(into.remaining());
                return all.read(into);
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {}
        };
        while (large.read(watched) > 0) {
            large.handleFrames();
        }
        assertArrayEquals(payload, handler.frames.poll());
        assertTrue(offered.stream().allMatch(n -> n <= InboundFramer.READ_BYTES), offered.toString());
    }

    /** Room taken from the budget for a buffer that could not be made goes back to it: none is held for ever. */
    @Test
    void shouldGiveBackTheRoomOfABufferThatCouldNotBeMade() throws Exception {
        final long before = ReceiveBudget.held();
        final InboundFramer starved = new InboundFramer(link, handler, MAX, null, size -> {
            if (size > 64 << 10) {
                throw new OutOfMemoryError("Java heap space (for the test)");
            }
            return ByteBuffer.allocate(size);
        });
        final int payload = 200_000;
        final ByteBuffer bytes = ByteBuffer.allocate(FrameDescriptor.PAYLOAD_OFFSET + payload)
                .putInt(FrameDescriptor.lengthField(payload, 0))
                .put(FrameDescriptor.MESSAGE)
                .position(0);
        final Source source = new Source(bytes);
        assertThrows(OutOfMemoryError.class, () -> {
            for (int i = 0; i < 100; i++) {
                starved.read(source);
                starved.handleFrames();
            }
        });
        assertEquals(before + starved.capacity() - InboundFramer.INITIAL_BYTES, ReceiveBudget.held());
        starved.release();
        assertEquals(before, ReceiveBudget.held());
    }

    @Test
    void shouldCloseTheLinkOnAFrameWhoseTagFails() {
        final byte[] keys = new byte[2 * FrameMac.KEY_BYTES];
        final InboundFramer checked = new InboundFramer(link, handler, MAX, new FrameMac(keys, 0));
        final byte[] bare = frame(FrameDescriptor.MESSAGE, new byte[] {9});
        final ByteBuffer forged = ByteBuffer.allocate(bare.length + FrameMac.TAG_BYTES)
                .putInt(FrameDescriptor.lengthField(1, FrameMac.TAG_BYTES))
                .put(bare, FrameDescriptor.KIND_OFFSET, bare.length - FrameDescriptor.KIND_OFFSET)
                .rewind();
        checked.append(Unpooled.wrappedBuffer(forged));
        assertThrows(IllegalStateException.class, checked::handleFrames);
        assertTrue(link.reason.contains("failed its authentication"), link.reason);
        assertNull(handler.frames.poll());
    }

    /**
     * A handler that closes the link on a frame (a protocol violation it found, say) must hear nothing more from
     * that link: not the frames read with it, nor those read after it.
     */
    @Test
    void shouldHandOverNothingMoreOnceTheHandlerClosedTheLink() throws Exception {
        final List<byte[]> received = new ArrayList<>();
        final LinkHandler closing = new LinkHandler() {
            @Override
            public void opened(final Link l) {}

            @Override
            public void received(final Link l, final byte[] frame, final int offset, final int length) {
                received.add(Arrays.copyOfRange(frame, offset, offset + length));
                if (frame[offset] == 9) {
                    l.close("frame 9 broke the protocol");
                }
            }

            @Override
            public void closed(final Link l, final String reason) {}
        };
        final InboundFramer framer = new InboundFramer(link, closing, MAX, null);
        final ByteBuffer bytes = ByteBuffer.allocate(64)
                .put(frame(FrameDescriptor.MESSAGE, new byte[] {1}))
                .put(frame(FrameDescriptor.MESSAGE, new byte[] {9}))
                .put(frame(FrameDescriptor.MESSAGE, new byte[] {2}))
                .flip();
        framer.read(new Source(bytes));
        framer.handleFrames();
        framer.append(Unpooled.wrappedBuffer(frame(FrameDescriptor.MESSAGE, new byte[] {3})));
        framer.handleFrames();

        assertEquals(
                List.of("[1]", "[9]"), received.stream().map(Arrays::toString).toList());
        assertEquals("frame 9 broke the protocol", link.reason);
    }

    private static byte[] frame(final byte kind, final byte[] payload) {
        return ByteBuffer.allocate(FrameDescriptor.frameLength(payload.length, 0))
                .putInt(FrameDescriptor.lengthField(payload.length, 0))
                .put(kind)
                .put(payload)
                .array();
    }

    /** A socket's read side that has {@code bytes}, then nothing. */
    private static final class Source implements ReadableByteChannel {
        private final Queue<ByteBuffer> chunks = new ArrayDeque<>();

        Source(final ByteBuffer bytes) {
            chunks.add(bytes);
        }

        @Override
        public int read(final ByteBuffer into) {
            final ByteBuffer next = chunks.peek();
            if (next == null) {
                return 0;
            }
            final int n = Math.min(into.remaining(), next.remaining());
            into.put(into.position(), next, next.position(), n).position(into.position() + n);
            next.position(next.position() + n);
            if (!next.hasRemaining()) {
                chunks.remove();
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }

    /** A link that only notes why it was closed. */
    private static final class ClosingLink implements Link {
        private String reason;

        @Override
        public String peerRuntimeId() {
            return "rt-peer";
        }

        @Override
        public String peerAddress() {
            return "";
        }

        @Override
        public String localAddress() {
            return "";
        }

        @Override
        public void send(final byte[] frame, final int offset, final int length, final boolean batch) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void send(final byte[] head, final int headLength, final ByteBuffer tail, final boolean batch) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isOpen() {
            return reason == null;
        }

        @Override
        public void close(final String why) {
            reason = why;
        }
    }
}
