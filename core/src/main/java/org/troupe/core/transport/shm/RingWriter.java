package org.troupe.core.transport.shm;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.troupe.core.spi.Progress;

/**
 * The sending half of a shared-memory link: frames into the ring, cut into pieces when larger than a ring record
 * may be ({@link Pieces}), one sender at a time (the ring has one producer); the reader's doorbell rung when it
 * sleeps. A full ring is waited out, reading this JVM's own arrivals meanwhile (the peer may be waiting for room
 * in the other direction), spinning briefly, then yielding, then parking; a peer that takes nothing for the peer
 * timeout has its link closed.
 */
final class RingWriter {
    /** How to ring the peer's doorbell, and how to close the link when the peer stops reading. */
    interface Control {
        void ringDoorbell();

        boolean isOpen();

        void close(String reason);

        /** Why the link is closed, for the sender's error; null while it is open. */
        String closeReason();
    }

    private static final int SPINS = 200;
    private static final int YIELDS = 50;
    private static final long PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    private final OneToOneRingBuffer ring;
    private final AtomicBuffer records;
    private final ReaderState reader;
    private final Control control;
    private final long peerTimeoutNanos;
    private final int maxFrameBytes;
    private final ReentrantLock sending = new ReentrantLock();
    /** Frames sent by handlers this thread ran while its own frame waited for room; under {@link #sending}. */
    private final ArrayDeque<byte[]> deferred = new ArrayDeque<>();

    private final Runnable released;
    private volatile boolean closed;
    /** Under {@link #sending}. */
    private boolean releasedOnce;

    RingWriter(
            final OneToOneRingBuffer ring,
            final ReaderState reader,
            final Control control,
            final long peerTimeoutNanos,
            final int maxFrameBytes,
            final Runnable released) {
        this.ring = ring;
        this.records = ring.buffer();
        this.reader = reader;
        this.control = control;
        this.peerTimeoutNanos = peerTimeoutNanos;
        this.maxFrameBytes = maxFrameBytes;
        this.released = released;
    }

    /**
     * Writes the frame {@code head[offset, offset + length)} followed by {@code tail}'s remaining bytes (none if
     * null; its position is not changed). A frame sent by a handler that this writer's own wait for room ran (it
     * read this JVM's arrivals meanwhile) is copied and follows the frame being written.
     *
     * @throws IllegalArgumentException if the frame is larger than the peer accepts
     * @throws IllegalStateException if the link is closed, or closes while the frame waits for room
     */
    void write(final byte[] head, final int offset, final int length, final ByteBuffer tail) {
        final long total = (long) length + (tail == null ? 0 : tail.remaining());
        if (total > maxFrameBytes) { // the peer would close the link on it
            throw new IllegalArgumentException("A message of " + total + " bytes cannot be sent: at most "
                    + maxFrameBytes + " are accepted (troupe.serialization.maxMessageBytes)");
        }
        if (sending.isHeldByCurrentThread()) { // between two pieces of this thread's own frame
            final byte[] copy = new byte[(int) total];
            new Frame(head, offset, length, tail).copyTo(copy);
            deferred.add(copy);
            return;
        }
        sending.lock();
        try {
            checkOpen();
            writeFrame(new Frame(head, offset, length, tail), (int) total);
            for (byte[] next; (next = deferred.pollFirst()) != null; ) {
                writeFrame(new Frame(next, 0, next.length, null), next.length);
            }
        } finally {
            deferred.clear();
            sending.unlock();
            if (closed) {
                release();
            }
        }
    }

    private void writeFrame(final Frame frame, final int total) {
        final int max = ring.maxMsgLength();
        if (total <= max) {
            put(Pieces.WHOLE, frame, 0, total, -1);
            return;
        }
        int at = max - Integer.BYTES;
        put(Pieces.FIRST, frame, 0, at, total);
        while (at < total) {
            final int n = Math.min(max, total - at);
            put(at + n == total ? Pieces.LAST : Pieces.MORE, frame, at, n, -1);
            at += n;
        }
    }

    /**
     * No frame is written from now on; {@code released} runs once no thread writes (here, or when the thread
     * writing now leaves), so that the ring may be unmapped.
     */
    void close() {
        closed = true;
        release();
    }

    private void release() {
        if (sending.isHeldByCurrentThread()) {
            return; // closed from inside its own write: the write's end releases
        }
        if (sending.tryLock()) { // whoever takes the lock after close() sees it closed and touches nothing
            try {
                if (!releasedOnce) {
                    releasedOnce = true;
                    released.run();
                }
            } finally {
                sending.unlock();
            }
        }
    }

    /**
     * One record of type {@code type} holding the frame's bytes {@code [from, from + n)}, after the frame's total
     * length when {@code total >= 0}.
     */
    private void put(final int type, final Frame frame, final int from, final int n, final int total) {
        final int recordLength = n + (total >= 0 ? Integer.BYTES : 0);
        int index = ring.tryClaim(type, recordLength);
        if (index <= 0) {
            index = waitForRoom(type, recordLength);
        }
        int at = index;
        if (total >= 0) {
            records.putInt(at, total);
            at += Integer.BYTES;
        }
        frame.copy(records, at, from, n);
        ring.commit(index);
        if (reader.mustRing()) {
            control.ringDoorbell();
        }
    }

    private int waitForRoom(final int type, final int recordLength) {
        long consumed = ring.consumerPosition();
        long since = System.nanoTime();
        for (int tries = 0; ; tries++) {
            Progress.poll(); // the peer may be waiting for room on our side: take what it sent
            final int index = ring.tryClaim(type, recordLength);
            if (index > 0) {
                return index;
            }
            checkOpen();
            final long now = System.nanoTime();
            final long position = ring.consumerPosition();
            if (position != consumed) {
                consumed = position;
                since = now;
            } else if (now - since > peerTimeoutNanos) {
                control.close("the peer took nothing from a full shared-memory ring for "
                        + TimeUnit.NANOSECONDS.toMillis(peerTimeoutNanos) + " ms");
                checkOpen();
            }
            if (tries < SPINS) {
                Thread.onSpinWait();
            } else if (tries < SPINS + YIELDS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(PARK_NANOS);
            }
        }
    }

    private void checkOpen() {
        if (closed || !control.isOpen()) {
            final String reason = control.closeReason();
            throw new IllegalStateException(
                    "the shared-memory link is closed" + (reason == null ? "" : " (" + reason + ")"));
        }
    }

    /** The bytes of one frame: a head array and an optional tail buffer, copied out by range. */
    private record Frame(byte[] head, int offset, int length, ByteBuffer tail) {
        void copy(final AtomicBuffer to, final int index, final int from, final int n) {
            int at = index;
            int left = n;
            int pos = from;
            if (pos < length) {
                final int k = Math.min(left, length - pos);
                to.putBytes(at, head, offset + pos, k);
                at += k;
                left -= k;
                pos += k;
            }
            if (left > 0) {
                to.putBytes(at, tail, tail.position() + pos - length, left);
            }
        }

        void copyTo(final byte[] to) {
            System.arraycopy(head, offset, to, 0, length);
            if (tail != null) {
                tail.duplicate().get(to, length, tail.remaining());
            }
        }
    }
}
