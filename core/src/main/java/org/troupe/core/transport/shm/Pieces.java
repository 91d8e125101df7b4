package org.troupe.core.transport.shm;

/**
 * The record types of a ring: a frame in one record, or in pieces when it is larger than a record may be (an eighth
 * of the ring). A frame's pieces follow each other with nothing between them (the ring has one writer, which holds
 * it for the whole frame); the first carries the frame's total length before its bytes, so the reader makes room
 * once.
 */
final class Pieces {
    /** A whole frame. */
    static final int WHOLE = 1;
    /** The first piece: the total length (an int), then bytes. */
    static final int FIRST = 2;
    /** A piece between the first and the last. */
    static final int MORE = 3;
    /** The last piece: the frame is complete. */
    static final int LAST = 4;

    private Pieces() {}
}
