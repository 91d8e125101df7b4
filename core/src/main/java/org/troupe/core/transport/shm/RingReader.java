package org.troupe.core.transport.shm;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.troupe.core.transport.Delivery;

/**
 * The receiving half of a shared-memory link: frames out of the ring, whole or put together from their pieces,
 * handed to the link's handler one at a time. Any thread may drain it (a spinning waiter, the event loop on a
 * doorbell, the last spinner before it stops), one at a time: a drain that finds another thread draining leaves it
 * a note to look again (and the reader state to say), so nothing written meanwhile waits for the next drain. The
 * reader state is written by the reading thread only, since the memory may be unmapped once nobody reads.
 */
final class RingReader implements MessageHandler {
    /** What the frames go to; {@code frame[offset, offset + length)} is valid during the call only. */
    interface Frames {
        void received(byte[] frame, int offset, int length);

        /** A frame read in place, in the ring: valid during the call only. */
        void received(ByteBuffer frame);

        /** Whether reading must wait: the link's own answers pile up unsent ({@link RingWriter#readsHeld}). */
        boolean held();

        /** The producer asked to hear of room, and a read made some: ring its doorbell. */
        void roomMade();

        /** The peer broke the ring's rules (a frame over the limit, a piece out of order): the link must close. */
        void malformed(String what);
    }

    /**
     * Whole frames of at least this many bytes are lent to the handler in place, in the ring: a large message's data
     * is then copied once, straight into the receiver's buffer. Smaller ones are copied into an array the reader
     * reuses, which costs less than a view of the ring.
     */
    static final int IN_PLACE_BYTES = 8 * 1024;

    /** Records handed over per read of the ring, so a long burst frees its room as it goes. */
    private static final int RECORDS_PER_READ = 16;

    private final OneToOneRingBuffer ring;
    /** The ring's memory, whose position and limit frame what is lent in place. */
    private final ByteBuffer inPlace;

    private final ReaderState state;
    /** The ring's producer's ask to hear of room. */
    private final WriterState producer;

    private final Frames frames;
    private final int maxFrameBytes;
    private final Runnable released;
    /** Taken by the thread that reads the ring or its reader state: one at a time, and never once released. */
    private final AtomicBoolean reading = new AtomicBoolean();
    /** Set by a drain that found another reading: the reader reads once more before it leaves. */
    private volatile boolean again;
    /** The reader state to say next ({@link ReaderState}'s values, or {@link #UNCHANGED}), said by the reader. */
    private final AtomicInteger say = new AtomicInteger(UNCHANGED);

    private static final int UNCHANGED = -1;
    private static final int ANSWERED = -2;
    private volatile boolean closed;
    /** Set once the ring broke its rules: nothing more is read from it. */
    private volatile boolean broken;
    /** A frame's bytes when copied out whole, and the frame being put together from pieces. */
    private byte[] frame = new byte[4096];

    private int assembled = -1;
    /** The total length the frame being put together announced. */
    private int expected;

    RingReader(
            final OneToOneRingBuffer ring,
            final ReaderState state,
            final WriterState producer,
            final Frames frames,
            final int maxFrameBytes,
            final Runnable released) {
        this.ring = ring;
        this.inPlace = bytesOf(ring.buffer());
        this.state = state;
        this.producer = producer;
        this.frames = frames;
        this.maxFrameBytes = maxFrameBytes;
        this.released = released;
    }

    /** A spinner's step: reads what has come, unless another thread reads now (it reads it then). */
    void poll() {
        if (reading.compareAndSet(false, true)) {
            try {
                again = false;
                if (!closed) {
                    if (say.get() != UNCHANGED) {
                        tellState();
                    }
                    if (ring.size() > 0) {
                        readAll();
                    }
                }
            } finally {
                leave();
            }
            if (again) {
                drain();
            }
        }
    }

    /** Reads everything there is, or leaves it to the thread reading now, with a note to look again. */
    void drain() {
        again = true;
        while (again && !closed && reading.compareAndSet(false, true)) {
            try {
                again = false;
                if (!closed) {
                    tellState();
                    readAll();
                }
            } finally {
                leave();
            }
        }
    }

    private void readAll() {
        readAll(false);
    }

    /** {@code last}: the link is closing, so reading no longer waits for its answers to leave. */
    private void readAll(final boolean last) {
        final int[] depth = Delivery.handlers(); // its sends are answers, which must not wait
        depth[0]++;
        try {
            while (!closed && !broken && (last || !frames.held())) {
                final long before = ring.consumerPosition();
                try {
                    ring.read(this, RECORDS_PER_READ);
                } catch (IndexOutOfBoundsException e) {
                    // A record header whose length runs past the ring (handlers' failures are caught in
                    // onMessage): the ring's read met its bounds check, which must not reach the polling thread.
                    malformed("a record that runs past the ring's end: " + e.getMessage());
                    break;
                }
                // Progress, not the count of frames read: a read that meets the padding at the ring's end hands
                // nothing over, yet more may follow it at the start.
                if (ring.consumerPosition() == before) {
                    break;
                }
                if (producer.mustRing()) { // each read frees the room of what it handed over
                    frames.roomMade();
                }
            }
        } finally {
            depth[0]--;
        }
    }

    private void tellState() {
        switch (say.getAndSet(UNCHANGED)) {
            case ReaderState.AWAKE -> state.awake();
            case ReaderState.ASLEEP -> state.asleep();
            case ANSWERED -> state.answered();
            default -> {}
        }
    }

    private void leave() {
        reading.set(false);
        if (closed && reading.compareAndSet(false, true)) { // nobody reads again: the ring may go
            released.run();
        }
    }

    /** A thread of this JVM spins, and so polls: the peer need not ring. */
    void awake() {
        say.set(ReaderState.AWAKE);
        drain();
    }

    /** Nobody of this JVM polls any more: the peer rings from now on; what came before is read now. */
    void asleep() {
        say.set(ReaderState.ASLEEP);
        drain();
    }

    /** The peer rang: it rings again after this; read what it wrote. */
    void doorbell() {
        say.compareAndSet(UNCHANGED, ANSWERED); // an awake or asleep to say wins: either makes the peer's turn moot
        drain();
    }

    /**
     * Stops reading once everything the peer wrote is handed over: waits for a thread reading now (a spinner in a
     * handler's run, which never waits for another frame) to leave, reads the rest, and keeps the ring so that nobody
     * reads again; then {@code released} runs. Were the closer to leave the rest to that thread, the closing would
     * stop it midway, and a reply the peer sent before it went would be lost. A thread inside a handler, which may be
     * the one reading, stops reading at once ({@link #close}).
     */
    void closeAfterDraining() {
        if (Delivery.inHandler()) {
            drain();
            close();
            return;
        }
        while (!reading.compareAndSet(false, true)) {
            if (closed) {
                return; // closed by another, which released the ring or leaves it to whoever reads now
            }
            Thread.onSpinWait();
        }
        try {
            if (!closed) {
                tellState();
                readAll(true);
            }
        } finally {
            closed = true;
            released.run(); // whoever takes the ring once it is closed releases it, and never gives it back
        }
    }

    /**
     * Stops reading; {@code released} runs once no thread reads (here, or when the thread reading now leaves), so
     * that the ring may be unmapped.
     */
    void close() {
        closed = true;
        if (reading.compareAndSet(false, true)) {
            released.run();
        }
    }

    @Override
    public void onMessage(final int type, final MutableDirectBuffer buffer, final int index, final int length) {
        if (broken) {
            return; // the rest of a read's batch after a broken rule: not framed, not handed over
        }
        try {
            handOver(type, buffer, index, length);
        } catch (Throwable t) { // a handler's Error must not escape into a spinning waiter or leave the ring unread
            malformed("a frame's handler failed: " + t);
        }
    }

    private void handOver(final int type, final MutableDirectBuffer buffer, final int index, final int length) {
        if (type != Pieces.MORE && type != Pieces.LAST && assembled >= 0) {
            malformed("a frame begun before the last one (of " + expected + " bytes) ended");
            return;
        }
        switch (type) {
            case Pieces.WHOLE -> {
                if (length > maxFrameBytes) {
                    malformed("a frame of " + length + " bytes (at most " + maxFrameBytes + ")");
                    return;
                }
                if (length >= IN_PLACE_BYTES) {
                    inPlace.limit(index + length).position(index);
                    frames.received(inPlace);
                    inPlace.clear();
                    return;
                }
                ensure(length);
                buffer.getBytes(index, frame, 0, length);
                frames.received(frame, 0, length);
            }
            case Pieces.FIRST -> {
                final int total = buffer.getInt(index);
                final int n = length - Integer.BYTES;
                if (total <= n || total > maxFrameBytes) {
                    malformed("a frame of " + total + " bytes announced (at most " + maxFrameBytes + ")");
                    return;
                }
                ensure(total);
                buffer.getBytes(index + Integer.BYTES, frame, 0, n);
                expected = total;
                assembled = n;
            }
            case Pieces.MORE, Pieces.LAST -> {
                final boolean last = type == Pieces.LAST;
                if (assembled < 0 || (long) assembled + length > expected || last != (assembled + length == expected)) {
                    malformed("a piece that does not fit the frame announced (" + expected + " bytes)");
                    return;
                }
                buffer.getBytes(index, frame, assembled, length);
                assembled += length;
                if (last) {
                    assembled = -1;
                    frames.received(frame, 0, expected);
                }
            }
            default -> malformed("a record of unknown type " + type);
        }
    }

    /** The memory under {@code buffer}, as a byte buffer of its own (from 0 to the buffer's capacity). */
    private static ByteBuffer bytesOf(final DirectBuffer buffer) {
        final ByteBuffer under =
                buffer.byteBuffer() != null ? buffer.byteBuffer().duplicate() : ByteBuffer.wrap(buffer.byteArray());
        return under.clear().slice(buffer.wrapAdjustment(), buffer.capacity());
    }

    /** Stops reading the ring for good (what follows cannot be framed) and has the link closed, once. */
    private void malformed(final String what) {
        if (broken) {
            return; // the first broken rule is the one to report: what follows it is not framed
        }
        broken = true;
        frames.malformed(what);
    }

    private void ensure(final int length) {
        if (frame.length < length) {
            frame = new byte[Math.max(length, Math.min(maxFrameBytes, 2 * frame.length))];
        }
    }
}
