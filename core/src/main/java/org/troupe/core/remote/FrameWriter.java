package org.troupe.core.remote;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.troupe.core.instrument.LinkMeters;
import org.troupe.core.transport.Link;
import org.troupe.serialization.CodecSession;
import org.troupe.serialization.TroupeOutput;

/**
 * Writes this runtime's frames to one peer, one at a time: kind and id raw, then the body, encoded with the
 * connection's codec session (whose class table both sides build as frames go), into one reused buffer.
 */
final class FrameWriter {
    /** Writes a frame's body: raw fields and encoded objects. */
    @FunctionalInterface
    interface Body {
        void write(TroupeOutput out);
    }

    private final Link link;
    private final CodecSession codec;
    private final ReentrantLock lock = new ReentrantLock();
    /** Counted under the lock: one writer at a time. */
    private final LinkMeters meters;

    private final TroupeOutput out;
    /** The futures passed on in the frame being written: each flag is set if the frame is not sent after all. */
    private final List<AtomicBoolean> futuresPassedOn = new ArrayList<>();

    FrameWriter(final Link link, final CodecSession codec, final LinkMeters meters) {
        this.link = link;
        this.codec = codec;
        this.meters = meters;
        this.out = codec.encoder().newOutput();
    }

    /**
     * Writes one frame carrying {@code calls} calls; a batched one may wait to leave with the next ones. Returns
     * its size in bytes.
     *
     * @throws IllegalStateException if the link is closed
     */
    int send(final byte kind, final long id, final boolean batch, final int calls, final Body body) {
        lock.lock();
        try {
            futuresPassedOn.clear();
            out.setPosition(0);
            out.writeByte(kind);
            out.writeLong(id);
            try {
                body.write(out);
            } catch (RuntimeException | Error e) { // not sent: nothing may be pushed for the futures it held
                abandonFuturesPassedOn();
                throw e;
            }
            try {
                link.send(out.getBuffer(), 0, out.position(), batch);
            } catch (RuntimeException e) { // nor class definitions kept that the peer never got
                codec.encoder().abandonLast();
                abandonFuturesPassedOn();
                throw e;
            }
            meters.sentLocked(out.position(), calls);
            return out.position();
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code action} holding the lock frames are written under (it may write frames itself). */
    void runLocked(final Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Within a {@link Body}: a future is passed on in this frame; returns the flag that is set if the frame is not
     * sent after all, so that its value is not pushed for an id the peer never got.
     */
    AtomicBoolean passingOnFuture() {
        final AtomicBoolean abandoned = new AtomicBoolean();
        futuresPassedOn.add(abandoned);
        return abandoned;
    }

    private void abandonFuturesPassedOn() {
        for (final AtomicBoolean f : futuresPassedOn) {
            f.set(true);
        }
        futuresPassedOn.clear();
    }

    /** Encodes {@code value} with the connection's session (within a {@link Body}). */
    void encode(final TroupeOutput o, final Object value) {
        codec.encoder().encode(value, o);
    }
}
