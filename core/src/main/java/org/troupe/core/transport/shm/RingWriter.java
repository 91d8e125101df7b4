package org.troupe.core.transport.shm;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.troupe.core.spi.Progress;
import org.troupe.core.transport.Delivery;

/**
 * The sending half of a shared-memory link: frames into the ring, cut into pieces when larger than a ring record
 * may be ({@link Pieces}), one sender at a time (the ring has one producer); the reader's doorbell rung when it
 * sleeps.
 *
 * <p>A full ring: a thread of the application waits for room, reading this JVM's own arrivals meanwhile (the peer
 * may be waiting for room the other way), spinning briefly, then yielding, then parking, for as long as the link
 * lives (a peer that dies or freezes closes the control link, as over TCP). A frame handler's send (an answer, sent by a thread that reads a ring)
 * must not wait, or two runtimes answering each other would each wait for the other to read: it is copied into the
 * link's queue, and the reader is asked to ring when it has made room ({@link WriterState}); while too much waits in
 * the queue, the link's reader stops reading, so the peer is held back by its own full ring instead of this JVM
 * queueing without bound. Frames leave in the order their sends returned: a frame waits behind the queue.
 */
final class RingWriter {
    /** How to ring the peer's doorbell, and how to close the link when the peer stops reading. */
    interface Control {
        void ringDoorbell();

        boolean isOpen();

        void close(String reason);

        /** Why the link is closed, for the sender's error; null while it is open. */
        String closeReason();

        /** The queue fell below half its limit after reading was held back: reading may resume. */
        void queueDrained();
    }

    private static final int SPINS = 200;
    private static final int YIELDS = 50;
    private static final long MIN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** A peer that reads slowly (a long handler, its reads held back) is not polled more often than this. */
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final OneToOneRingBuffer ring;
    private final AtomicBuffer records;
    private final ReaderState reader;
    private final WriterState room;
    private final Control control;
    private final int maxFrameBytes;
    /** Past it, the link's reader holds back: twice the ring. */
    private final long maxQueuedBytes;

    private final ReentrantLock sending = new ReentrantLock();
    /** Frames not yet wholly in the ring, oldest first, each a copy; under {@link #sending}. */
    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    /** Answers that found {@link #sending} taken: moved to {@link #queue} by whoever holds it next. */
    private final ConcurrentLinkedQueue<byte[]> incoming = new ConcurrentLinkedQueue<>();
    /** The bytes not yet in the ring of the frames in {@link #queue} and {@link #incoming}. */
    private final AtomicLong queuedBytes = new AtomicLong();

    private volatile boolean readsHeld;
    /** Room was made, or a frame queued, while another held {@link #sending}: it flushes again as it lets go. */
    private volatile boolean roomSignalled;
    /** Reading was held and may resume: done by the thread that lets go of {@link #sending}. */
    private boolean resumeReads;

    private final Runnable released;
    private volatile boolean closed;
    /** Under {@link #sending}. */
    private boolean releasedOnce;

    RingWriter(
            final OneToOneRingBuffer ring,
            final ReaderState reader,
            final WriterState room,
            final Control control,
            final int maxFrameBytes,
            final Runnable released) {
        this.ring = ring;
        this.records = ring.buffer();
        this.reader = reader;
        this.room = room;
        this.control = control;
        this.maxFrameBytes = maxFrameBytes;
        this.maxQueuedBytes = 2L * ring.capacity();
        this.released = released;
    }

    /**
     * Writes the frame {@code head[offset, offset + length)} followed by {@code tail}'s remaining bytes (none if
     * null; its position is not changed), or queues a copy of it.
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
        final Frame frame = new Frame(head, offset, length, tail, (int) total);
        // A handler run by this thread's own wait for room, below: its frame goes behind the one being written.
        final boolean nested = sending.isHeldByCurrentThread();
        final boolean answer = nested || Delivery.inHandler();
        if (answer && !nested && !sending.tryLock()) {
            // A reader must not wait for a sender who waits for room the peer's reader makes: if the peer's reader
            // did the same, neither would read again. The sender takes it in at its next frame's start.
            final byte[] copy = new byte[frame.total()];
            frame.copyTo(copy);
            incoming.add(copy);
            if (queuedBytes.addAndGet(copy.length) > maxQueuedBytes) {
                readsHeld = true; // roomMade below, or the holder's unlock, flushes and lifts it once below half
            }
            roomMade(); // if the sender let go meanwhile, nobody else will take it in
            return;
        }
        if (!answer || nested) {
            sending.lock();
        }
        try {
            checkOpen();
            if (nested) {
                enqueueBehind(frame);
            } else if (flush()) {
                final int written = writeSome(frame, 0);
                if (written == frame.total()) {
                    return;
                }
                if (!answer) {
                    waitToWrite(frame, written);
                    return;
                }
                enqueue(frame, written);
            } else if (answer) {
                enqueue(frame, 0);
            } else {
                waitToWrite(frame, 0);
            }
        } finally {
            unlock();
        }
    }

    /**
     * Lets go of {@link #sending}; then resumes reading if the queue drained, releases the ring if closed, and takes
     * in the answers that came while it was held (their senders did not wait for it).
     */
    private void unlock() {
        while (true) {
            final boolean resume = resumeReads && sending.getHoldCount() == 1; // the outermost hold lets go
            if (resume) {
                resumeReads = false;
            }
            sending.unlock();
            if (resume) {
                control.queueDrained();
            }
            if (closed) {
                release();
                return;
            }
            if ((incoming.isEmpty() && !roomSignalled) || sending.isHeldByCurrentThread() || !sending.tryLock()) {
                return;
            }
            roomSignalled = false;
            if (!closed && !flush()) { // closed: the ring may be gone; release() runs at the loop's top
                askForRoom();
            }
        }
    }

    /**
     * An application thread's frame, from byte {@code from} on: waits until the queue and then it are written. Not
     * cut short by an interrupt (a frame begun cannot be given up), which is kept for the caller but cleared
     * meanwhile: with it set, every park would return at once and the wait spin for as long as the peer reads not.
     */
    private void waitToWrite(final Frame frame, final int from) {
        boolean interrupted = Thread.interrupted();
        try {
            int written = from;
            long consumed = ring.consumerPosition();
            long park = MIN_PARK_NANOS;
            for (int tries = 0; ; tries++) {
                Progress.poll(); // the peer may be waiting for room on our side: take what it sent
                checkOpen(); // a peer gone or frozen closes the control link (heartbeats), and so this one
                if (written > 0 || flush()) { // a frame begun is finished before anything queued goes
                    written = writeSome(frame, written);
                    if (written == frame.total()) {
                        if (!flush()) { // what handlers sent meanwhile
                            askForRoom();
                        }
                        return;
                    }
                }
                final long position = ring.consumerPosition();
                if (position != consumed) { // the peer reads: it will make room soon
                    consumed = position;
                    tries = 0;
                    park = MIN_PARK_NANOS;
                }
                if (tries < SPINS) {
                    Thread.onSpinWait();
                } else if (tries < SPINS + YIELDS) {
                    Thread.yield();
                } else {
                    LockSupport.parkNanos(park);
                    interrupted |= Thread.interrupted();
                    park = Math.min(2 * park, MAX_PARK_NANOS);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Queues a copy of the frame, of which {@code written} bytes are in the ring, and asks to hear of room. */
    private void enqueue(final Frame frame, final int written) {
        final byte[] copy = new byte[frame.total()];
        frame.copyTo(copy);
        queue.addLast(new Queued(copy, written));
        if (queuedBytes.addAndGet(copy.length - written) > maxQueuedBytes) {
            readsHeld = true;
        }
        askForRoom();
    }

    /** A handler's frame sent while this thread writes another: queued, written once that one is done. */
    private void enqueueBehind(final Frame frame) {
        final byte[] copy = new byte[frame.total()];
        frame.copyTo(copy);
        queue.addLast(new Queued(copy, 0));
        queuedBytes.addAndGet(copy.length);
    }

    /** The reader rings once it has read: unless room came before the ask was seen, then it is used now. */
    private void askForRoom() {
        room.waiting();
        flush(); // room that came just before the ask: the reader may not have seen it
        if (!queue.isEmpty()) {
            return;
        }
        room.satisfied();
    }

    /**
     * On a doorbell from the peer (it read, and this side had asked for room): writes what the queue holds as far
     * as room allows, unless a sender holds the ring now (it writes the queue first itself).
     */
    void roomMade() {
        roomSignalled = true; // whoever holds the lock now flushes again as it lets go
        if (queuedBytes.get() == 0 && !readsHeld || sending.isHeldByCurrentThread() || !sending.tryLock()) {
            return;
        }
        roomSignalled = false;
        try {
            if (!closed && !flush()) {
                askForRoom();
            }
        } finally {
            unlock();
        }
    }

    /** Writes the queued frames as far as room allows; whether the queue is empty now. Holds {@link #sending}. */
    private boolean flush() {
        for (byte[] answer; (answer = incoming.poll()) != null; ) {
            queue.addLast(new Queued(answer, 0));
        }
        for (Queued q; (q = queue.peekFirst()) != null; ) {
            final Frame f = new Frame(q.bytes(), 0, q.bytes().length, null, q.bytes().length);
            final int written = writeSome(f, q.written());
            queuedBytes.addAndGet(q.written() - written);
            if (written < q.bytes().length) {
                queue.pollFirst();
                queue.addFirst(new Queued(q.bytes(), written));
                return false;
            }
            queue.pollFirst();
        }
        if (readsHeld && queuedBytes.get() < maxQueuedBytes / 2) {
            readsHeld = false;
            resumeReads = true; // once the lock is let go: reading runs handlers, whose sends take it
        }
        return true;
    }

    /** Whether the link's reader must hold back: too much of what its handlers sent waits in the queue. */
    boolean readsHeld() {
        return readsHeld;
    }

    /**
     * Writes the frame's pieces from byte {@code from} on while they fit; returns how far it got. A frame's first
     * piece carries its total length; a frame is cut only at a piece's end.
     */
    private int writeSome(final Frame frame, final int from) {
        final int total = frame.total();
        final int max = ring.maxMsgLength();
        int at = from;
        if (at == 0) {
            if (total <= max) {
                return put(Pieces.WHOLE, frame, 0, total, -1) ? total : 0;
            }
            if (!put(Pieces.FIRST, frame, 0, max - Integer.BYTES, total)) {
                return 0;
            }
            at = max - Integer.BYTES;
        }
        while (at < total) {
            final int n = Math.min(max, total - at);
            if (!put(at + n == total ? Pieces.LAST : Pieces.MORE, frame, at, n, -1)) {
                return at;
            }
            at += n;
        }
        return at;
    }

    /**
     * One record of type {@code type} holding the frame's bytes {@code [from, from + n)}, after the frame's total
     * length when {@code total >= 0}; false if the ring has no room for it.
     */
    private boolean put(final int type, final Frame frame, final int from, final int n, final int total) {
        final int index = ring.tryClaim(type, n + (total >= 0 ? Integer.BYTES : 0));
        if (index <= 0) {
            return false;
        }
        try {
            int at = index;
            if (total >= 0) {
                records.putInt(at, total);
                at += Integer.BYTES;
            }
            frame.copy(records, at, from, n);
        } catch (Throwable t) { // a record left claimed would stop the reader for good; what it began is lost
            ring.abort(index);
            control.close("a frame could not be written into the shared-memory ring: " + t);
            throw t;
        }
        ring.commit(index);
        if (reader.mustRing()) {
            control.ringDoorbell();
        }
        return true;
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
                    queue.clear();
                    queuedBytes.set(0);
                    incoming.clear();
                    released.run();
                }
            } finally {
                sending.unlock();
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

    /** A frame queued: its bytes, and how many of them are in the ring. */
    private record Queued(byte[] bytes, int written) {}

    /** The bytes of one frame: a head array and an optional tail buffer, copied out by range. */
    private record Frame(byte[] head, int offset, int length, ByteBuffer tail, int total) {
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
