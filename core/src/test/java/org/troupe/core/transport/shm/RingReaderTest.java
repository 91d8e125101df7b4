package org.troupe.core.transport.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
    private final List<byte[]> frames = new CopyOnWriteArrayList<>();
    /** A handler given a frame starting with {@link #HOLD} waits here (a reader busy in a handler). */
    private final CountDownLatch holding = new CountDownLatch(1);

    private final CountDownLatch held = new CountDownLatch(1);
    private static final byte HOLD = 100;
    /** A handler given a frame starting with it throws an Error. */
    private static final byte THROW = 101;

    private final AtomicInteger released = new AtomicInteger();
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
                    if (frame[offset] == THROW) {
                        throw new StackOverflowError("a handler's Error");
                    }
                    if (frame[offset] == HOLD) {
                        holding.countDown();
                        try {
                            held.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
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
            released::incrementAndGet);

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

    /**
     * A hostile process of this user writes a record header whose length runs past the ring's end (or overflows
     * when aligned): the ring's own read would throw out of its bounds into whichever thread polls (a caller's wait,
     * the event loop), so the reader must refuse the ring instead.
     */
    @Test
    void aRecordLongerThanTheRingBreaksTheRingWithoutThrowingIntoThePoller() {
        for (final int length : new int[] {CAPACITY + 4096, Integer.MAX_VALUE - 3}) {
            final RingReaderTest fresh = new RingReaderTest();
            fresh.forgeRecord(Pieces.WHOLE, length);
            fresh.reader.drain(); // must not throw
            fresh.reader.poll();
            assertEquals(1, fresh.broken.size(), "length " + length + ": " + fresh.broken);
            assertEquals(List.of(), fresh.frames);
        }
    }

    /** Writes a record header at the ring's tail by hand, as a hostile producer could, and moves the tail past it. */
    private void forgeRecord(final int type, final int length) {
        final UnsafeBuffer buffer = (UnsafeBuffer) ring.buffer();
        final int tailIndex = CAPACITY + RingBufferDescriptor.TAIL_POSITION_OFFSET;
        final long tail = buffer.getLong(tailIndex);
        final int at = (int) tail & (CAPACITY - 1);
        buffer.putInt(at + 4, type); // Agrona's record header: length, then type
        buffer.putIntVolatile(at, length);
        buffer.putLongVolatile(tailIndex, tail + 64);
    }

    /**
     * A handler throws an Error on a frame put together from pieces, with more frames behind it: the Error does not
     * reach the polling thread, the ring is refused once (the link closes) and nothing after it is handed over.
     */
    @Test
    void aHandlersErrorMidReadStopsTheRingWithoutReachingThePoller() {
        final byte[] rest = new byte[3];
        write(Pieces.FIRST, first(4, new byte[] {THROW}));
        write(Pieces.LAST, rest);
        write(Pieces.WHOLE, new byte[] {9});
        reader.poll(); // must not throw
        reader.drain();
        assertEquals(1, broken.size(), broken.toString());
        assertTrue(broken.get(0).contains("StackOverflowError"), broken.toString());
        assertEquals(1, frames.size(), "nothing after the failed frame is handed over");
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

    /**
     * The link closes while a spinner is in a frame's handler, with more frames behind: the closer waits for it and
     * hands the rest over before it stops reading (were it to stop the spinner midway, a reply written before the
     * peer went would be lost); the ring is released once.
     */
    @Test
    void aCloseWhileASpinnerReadsHandsOverEveryFrameWrittenBeforeIt() throws Exception {
        write(Pieces.WHOLE, new byte[] {HOLD});
        final Thread spinner = Thread.ofPlatform().start(reader::poll);
        assertTrue(holding.await(30, TimeUnit.SECONDS), "the spinner is in the handler");
        final int behind = 40; // more than one read's batch
        for (int i = 1; i <= behind; i++) {
            write(Pieces.WHOLE, new byte[] {(byte) i});
        }
        final Thread closer = Thread.ofPlatform().start(reader::closeAfterDraining);
        held.countDown();
        spinner.join(TimeUnit.SECONDS.toMillis(30)); // bounds for a failing run, not timings
        closer.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(closer.isAlive(), "the close ended");
        assertEquals(behind + 1, frames.size(), "every frame written before the close handed over");
        assertEquals(1, released.get(), "the ring released once");
        write(Pieces.WHOLE, new byte[] {HOLD});
        reader.poll();
        reader.drain();
        assertEquals(behind + 1, frames.size(), "nothing is read after the close");
    }
}
