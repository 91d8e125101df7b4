package org.troupe.core.transport.shm;

import org.agrona.BitUtil;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * The layout of the file two runtimes of one host share for one link: a header, then one ring per direction, each
 * an Agrona one-to-one ring buffer (its records, then its trailer of positions).
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                     magic:long "TRPSHM01"                      |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                   ring capacity:int (bytes)                    |
 *  +---------------------------------------------------------------+
 *  |  ... up to READER_STATE_OFFSET                                 |
 *  +---------------------------------------------------------------+
 *  |   reader state of ring 0 (its consumer writes it):int         |
 *  +---------------------------------------------------------------+
 *  |  ... to the next cache line                                    |
 *  +---------------------------------------------------------------+
 *  |   writer state of ring 0 (its producer asks, consumer clears) |
 *  +---------------------------------------------------------------+
 *  |  ... to the next cache line                                    |
 *  +---------------------------------------------------------------+
 *  |   reader state of ring 1, then its writer state, alike        |
 *  +---------------------------------------------------------------+
 *  |  ... up to RING_OFFSET (a page)                                |
 *  +---------------------------------------------------------------+
 *  |  ring 0: capacity bytes of records, then its trailer           |
 *  +---------------------------------------------------------------+
 *  |  ring 1: the same                                              |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Ring 0 carries the connecting runtime's frames to the accepting one, ring 1 the answers. A reader state says
 * whether the ring's consumer has a thread polling it ({@link ReaderState}): its producer reads it after each
 * write to know whether to ring the doorbell; a writer state whether the producer waits to hear of room
 * ({@link WriterState}). Native byte order: both ends run on one host.
 */
final class RingFileLayout {
    /** "TRPSHM01" as a little-endian long: a file of this layout and version. */
    static final long MAGIC = 0x31304D4853505254L;

    static final int MAGIC_OFFSET = 0;
    static final int CAPACITY_OFFSET = MAGIC_OFFSET + Long.BYTES;
    /** Each reader state on two cache lines of its own, so the two directions do not share one. */
    static final int READER_STATE_STRIDE = 2 * BitUtil.CACHE_LINE_LENGTH;

    static final int READER_STATE_OFFSET = READER_STATE_STRIDE;
    /** Where the first ring starts: a page, so each ring's records start page-aligned. */
    static final int RING_OFFSET = 4096;

    /** The smallest ring: below it, a large frame goes in too many pieces to be worth the mapping. */
    static final int MIN_CAPACITY = 64 * 1024;

    private RingFileLayout() {}

    /** Where the reader state of ring {@code ring} (0 or 1) is. */
    static int readerStateOffset(final int ring) {
        return READER_STATE_OFFSET + ring * READER_STATE_STRIDE;
    }

    /** Where the writer state of ring {@code ring} is: the cache line after its reader state. */
    static int writerStateOffset(final int ring) {
        return readerStateOffset(ring) + BitUtil.CACHE_LINE_LENGTH;
    }

    /** The bytes one ring takes: its records and its trailer. */
    static int ringLength(final int capacity) {
        return capacity + RingBufferDescriptor.TRAILER_LENGTH;
    }

    /** Where ring {@code ring} (0 or 1) starts. */
    static long ringOffset(final int capacity, final int ring) {
        return RING_OFFSET + (long) ring * BitUtil.align(ringLength(capacity), 4096);
    }

    /** The bytes of the whole file. */
    static long fileLength(final int capacity) {
        return ringOffset(capacity, 2);
    }

    /**
     * Fails unless {@code capacity} can be a ring's: a power of two from {@value #MIN_CAPACITY} to 1 GiB.
     *
     * @throws IllegalArgumentException naming the setting and the values it takes
     */
    static int checkCapacity(final int capacity) {
        if (capacity < MIN_CAPACITY || capacity > (1 << 30) || !BitUtil.isPowerOfTwo(capacity)) {
            throw new IllegalArgumentException("troupe.core.shmRingBytes=" + capacity
                    + " is not a power of two from " + MIN_CAPACITY + " to " + (1 << 30)
                    + " (bytes per direction of a shared-memory link; 4194304 is the default)");
        }
        return capacity;
    }
}
