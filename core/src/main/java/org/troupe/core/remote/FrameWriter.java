package org.troupe.core.remote;

import java.util.concurrent.locks.ReentrantLock;
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
    private final TroupeOutput out;

    FrameWriter(final Link link, final CodecSession codec) {
        this.link = link;
        this.codec = codec;
        this.out = codec.encoder().newOutput();
    }

    /**
     * Writes one frame; a batched one may wait to leave with the next ones. Returns its size in bytes.
     *
     * @throws IllegalStateException if the link is closed
     */
    int send(final byte kind, final long id, final boolean batch, final Body body) {
        lock.lock();
        try {
            out.setPosition(0);
            out.writeByte(kind);
            out.writeLong(id);
            body.write(out);
            try {
                link.send(out.getBuffer(), 0, out.position(), batch);
            } catch (RuntimeException e) { // not sent: the peer must not miss the class definitions it held
                codec.encoder().abandonLast();
                throw e;
            }
            return out.position();
        } finally {
            lock.unlock();
        }
    }

    /** Encodes {@code value} with the connection's session (within a {@link Body}). */
    void encode(final TroupeOutput o, final Object value) {
        codec.encoder().encode(value, o);
    }
}
