package org.troupe.core.transport.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;

/** The reader on a ring in plain memory, fed records by hand: frames put together, and a peer's broken rules. */
class RingReaderTest {
    private static final int CAPACITY = 64 * 1024;
    private static final int MAX_FRAME = 4 * RingReader.IN_PLACE_BYTES;

    private final OneToOneRingBuffer ring = new OneToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH)));
    private final UnsafeBuffer header = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
    private final List<byte[]> frames = new ArrayList<>();
    /** Frames lent in place, copied out during the call. */
    private final List<byte[]> lent = new ArrayList<>();

    private final List<String> broken = new ArrayList<>();
    private final RingReader reader = new RingReader(
            ring,
            new ReaderState(header, 0),
            new WriterState(header, 64),
            new RingReader.Frames() {
                @Override
                public void received(final byte[] frame, final int offset, final int length) {
                    frames.add(Arrays.copyOfRange(frame, offset, offset + length));
                }

                @Override
                public void received(final ByteBuffer frame) {
                    final byte[] copy = new byte[frame.remaining()];
                    frame.get(copy);
                    lent.add(copy);
                }

                @Override
                public boolean held() {
                    return false;
                }

                @Override
                public void roomMade() {}

                @Override
                public void malformed(final String what) {
                    broken.add(what);
                }
            },
            MAX_FRAME,
            () -> {});

    private void write(final int type, final byte[] bytes) {
        assertTrue(ring.write(type, new UnsafeBuffer(bytes), 0, bytes.length));
    }

    private static byte[] first(final int total, final byte[] bytes) {
        return ByteBuffer.allocate(4 + bytes.length)
                .order(ByteOrder.nativeOrder())
                .putInt(total)
                .put(bytes)
                .array();
    }

    @Test
    void aFrameInPiecesArrivesWholeAfterAWholeOne() {
        write(Pieces.WHOLE, new byte[] {1});
        write(Pieces.FIRST, first(5, new byte[] {1, 2}));
        write(Pieces.MORE, new byte[] {3, 4});
        write(Pieces.LAST, new byte[] {5});
        reader.drain();
        assertEquals(2, frames.size());
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, frames.get(1));
        assertEquals(List.of(), broken);
    }

    @Test
    void aPieceOfNoAnnouncedFrameBreaksTheRingAndNothingAfterItIsRead() {
        write(Pieces.MORE, new byte[] {3});
        write(Pieces.WHOLE, new byte[] {9});
        reader.drain();
        assertEquals(1, broken.size());
        assertEquals(List.of(), frames);
    }

    @Test
    void aFrameBegunInsideAnotherIsRefused() {
        write(Pieces.FIRST, first(5, new byte[] {1, 2}));
        write(Pieces.WHOLE, new byte[] {9});
        reader.drain();
        assertEquals(1, broken.size(), broken.toString());
        assertEquals(List.of(), frames);
    }

    @Test
    void aLastPieceShortOfTheAnnouncedLengthIsRefused() {
        write(Pieces.FIRST, first(5, new byte[] {1, 2}));
        write(Pieces.LAST, new byte[] {3});
        reader.drain();
        assertEquals(1, broken.size(), broken.toString());
        assertEquals(List.of(), frames);
    }

    @Test
    void aFrameAnnouncedOverTheLimitIsRefused() {
        write(Pieces.FIRST, first(MAX_FRAME + 1, new byte[] {1}));
        reader.drain();
        assertTrue(broken.get(0).contains("at most " + MAX_FRAME), broken.toString());
    }

    @Test
    void anUnknownRecordTypeIsRefused() {
        write(42, new byte[] {1});
        reader.drain();
        assertTrue(broken.get(0).contains("unknown type 42"), broken.toString());
    }

    @Test
    void aLargeWholeFrameIsLentInPlaceAndASmallOneCopied() {
        final byte[] large = new byte[RingReader.IN_PLACE_BYTES];
        Arrays.fill(large, (byte) 7);
        large[0] = 1;
        large[large.length - 1] = 2;
        write(Pieces.WHOLE, new byte[] {9}); // so that the large one starts inside the ring
        write(Pieces.WHOLE, large);
        write(Pieces.WHOLE, new byte[] {8});
        reader.drain();
        assertEquals(1, lent.size());
        assertArrayEquals(large, lent.get(0));
        assertEquals(2, frames.size());
        assertArrayEquals(new byte[] {8}, frames.get(1));
        assertEquals(List.of(), broken);
    }
}
