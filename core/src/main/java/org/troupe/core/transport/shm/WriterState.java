package org.troupe.core.transport.shm;

import java.lang.invoke.VarHandle;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Whether a ring's producer has frames queued and waits to hear of room, in one int of the shared file: its
 * consumer, after a read that freed some, rings the producer's doorbell then. The producer says so and then tries
 * the ring once more; the consumer frees room and then reads it, each with a full fence between, so that room made
 * just before the ask is used and room made after it is heard of.
 */
final class WriterState {
    private static final int IDLE = 0;
    private static final int WAITING = 1;

    private final AtomicBuffer buffer;
    private final int offset;

    WriterState(final AtomicBuffer buffer, final int offset) {
        this.buffer = buffer;
        this.offset = offset;
    }

    /** Producer: it has frames queued; try the ring again after this. */
    void waiting() {
        buffer.putIntVolatile(offset, WAITING);
    }

    /** Producer: its queue emptied after all. */
    void satisfied() {
        buffer.putIntVolatile(offset, IDLE);
    }

    /** Consumer, after a read that freed room: whether this thread must ring the producer (it took the turn). */
    boolean mustRing() {
        VarHandle.fullFence(); // the read's head store before this load
        return buffer.getIntVolatile(offset) == WAITING && buffer.compareAndSetInt(offset, WAITING, IDLE);
    }
}
