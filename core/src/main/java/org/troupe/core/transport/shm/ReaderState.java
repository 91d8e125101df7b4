package org.troupe.core.transport.shm;

import java.lang.invoke.VarHandle;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Whether a ring's consumer has a thread polling it, in one int of the shared file, so that its producer wakes it
 * only when nobody looks: a doorbell costs a frame on the control link and an event-loop wake-up (tens of
 * microseconds), a poll costs nothing while some thread spins anyway.
 *
 * <p>The consumer says {@link #AWAKE} while a thread of its JVM spins (and so polls), {@link #ASLEEP} when the last
 * one stops; after each write the producer reads it, and on {@code ASLEEP} takes the turn to ring
 * ({@code ASLEEP -> RUNG}, one doorbell however many writes follow). A doorbell's reader sets {@code RUNG -> ASLEEP}
 * before it drains. No frame is left unseen: the consumer stores {@code ASLEEP} and then reads the ring, the producer
 * writes the ring and then reads the state, each with a full fence between, so one of them sees the other's store.
 */
final class ReaderState {
    static final int AWAKE = 0;
    static final int ASLEEP = 1;
    static final int RUNG = 2;

    private final AtomicBuffer buffer;
    private final int offset;

    ReaderState(final AtomicBuffer buffer, final int offset) {
        this.buffer = buffer;
        this.offset = offset;
    }

    /** Consumer: a thread polls; a cheap read when it already says so, which is the common case. */
    void awake() {
        if (buffer.getIntVolatile(offset) != AWAKE) {
            buffer.putIntVolatile(offset, AWAKE);
        }
    }

    /** Consumer: nobody polls any more; read the ring after this (a volatile store: a full fence on x86). */
    void asleep() {
        buffer.putIntVolatile(offset, ASLEEP);
    }

    /** Consumer, on a doorbell: asleep again unless a spinner made it awake meanwhile; read the ring after this. */
    void answered() {
        buffer.compareAndSetInt(offset, RUNG, ASLEEP);
    }

    /** Producer, after a write: whether this thread must ring the doorbell (it took the turn to). */
    boolean mustRing() {
        VarHandle.fullFence(); // the write's ordered store before this load: the other half of the Dekker pair
        return buffer.getIntVolatile(offset) == ASLEEP && buffer.compareAndSetInt(offset, ASLEEP, RUNG);
    }

    /** For tests and logs: the current value. */
    int value() {
        return buffer.getIntVolatile(offset);
    }
}
