package org.troupe.core.transport.tcp;

import static org.troupe.core.transport.tcp.FrameDescriptor.HEADER_LENGTH;
import static org.troupe.core.transport.tcp.FrameDescriptor.lengthField;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.troupe.core.spi.Progress;

/**
 * Writes the frames over {@link OutboundPath#DIRECT_WRITE_MAX_BYTES} that a sender may wait for: from the sending
 * thread, a chunk at a time, their tag made while the socket is full. {@link OutboundPath} decides when (it sets
 * {@link OutboundPath#writingLarge}, under its lock, before calling {@link #write}).
 */
final class LargeFrameWriter {
    /** How long a write spins on a full socket before it naps between tries, and how long a nap is. */
    private static final long FULL_SOCKET_SPIN_NANOS = 100_000;

    private static final long FULL_SOCKET_NAP_NANOS = 20_000;
    /** How much of a large frame's tag is made each time the socket is found full: a few microseconds' work. */
    private static final long LARGE_TAG_STEP_BYTES = 64 * 1024;

    private final OutboundPath out;
    private final DirectSocketChannel channel;
    private final TcpLink link;
    private final Duration peerTimeout;
    private final FrameMac sending;
    private final int tagBytes;
    /** Tags the large frame being written, outside {@link OutboundPath#lock}; started by OutboundPath under it. */
    final FrameMac.Tagger tagger;

    LargeFrameWriter(
            final OutboundPath out,
            final DirectSocketChannel channel,
            final TcpLink link,
            final Duration peerTimeout,
            final FrameMac sending) {
        this.out = out;
        this.channel = channel;
        this.link = link;
        this.peerTimeout = peerTimeout;
        this.sending = sending;
        this.tagBytes = sending == null ? 0 : FrameMac.TAG_BYTES;
        this.tagger = sending == null ? null : sending.tagger();
    }

    /**
     * Writes a large frame from this thread, through {@link OutboundPath#directBuffer} a chunk at a time: each byte
     * is copied once, into memory the socket writes from, and nothing is queued behind the event loop. It owns the
     * socket's writing side ({@link OutboundPath#writingLarge}) without holding {@link OutboundPath#lock}: frames
     * sent meanwhile, by other threads or by handlers this thread runs, queue behind it and never wait for it, and
     * it flushes them when it ends. While the socket is full it reads what arrives (the peer may be writing to us as
     * well, and waiting for room), and it gives up when the peer takes nothing for the peer timeout.
     */
    void write(
            final byte kind,
            final byte[] frame,
            final int offset,
            final int headLength,
            final ByteBuffer tail,
            final int length) {
        boolean started = false;
        try { // from the start: writingLarge is set and the frame's place in the sequence taken, which only the finally
            // and catch undo
            if (out.directBuffer.capacity() < OutboundPath.DIRECT_WRITE_MAX_BYTES) {
                out.directBuffer = ByteBuffer.allocateDirect(OutboundPath.DIRECT_WRITE_MAX_BYTES);
            }
            final ByteBuffer head = ByteBuffer.wrap(frame, offset, headLength);
            final ByteBuffer rest = tail == null ? null : tail.duplicate();
            final ByteBuffer b = out.directBuffer.clear();
            b.putInt(lengthField(length, tagBytes)).put(kind);
            // The tag is made from the frame's sources while the socket is full, so it costs the sender little
            // time; whatever is left of it is made once the last byte is copied, and follows it.
            final LargeTag largeTag =
                    sending == null ? null : new LargeTag(tagger, b.getInt(0), kind, frame, offset, headLength, tail);
            ByteBuffer tag = sending == null ? ByteBuffer.allocate(0) : null;
            long waitingSince = 0;
            tag = copyNext(b, head, rest, largeTag, tag);
            while (true) {
                if (!b.hasRemaining()) { // refilled only once drained: moving what is left to the front costs more
                    tag = copyNext(b.clear(), head, rest, largeTag, tag);
                    if (!b.hasRemaining()) {
                        return;
                    }
                }
                if (channel.socket().write(b) > 0) {
                    started = true;
                    waitingSince = 0;
                } else { // the socket is full
                    if (tag == null) {
                        largeTag.advance(LARGE_TAG_STEP_BYTES);
                    }
                    waitingSince = waitingSince == 0 ? System.nanoTime() : waitingSince;
                    waitForRoom(waitingSince, waitingSince, "a frame of " + length + " bytes was being written");
                }
            }
        } catch (IOException e) {
            throw out.failed(e);
        } catch (RuntimeException | Error e) { // the payload could not be read (or a handler failed in a poll)
            if (started || sending != null) { // the peer would take what follows for the rest, or miss a tag
                link.close(e.toString());
            }
            throw e;
        } finally {
            out.largeWriteEnded();
        }
    }

    /**
     * One step of waiting for the peer to take data: fails once the link is closed, or when nothing has left since
     * {@code progressAt} for the peer timeout; else reads what arrives (the peer may be waiting for room as well),
     * spinning for a while after {@code since}, then napping.
     */
    void waitForRoom(final long since, final long progressAt, final String what) throws IOException {
        if (!channel.isActive()) {
            throw new IOException("the link closed while " + what);
        }
        final long now = System.nanoTime();
        if (now - progressAt > peerTimeout.toNanos()) {
            throw new IOException("the peer took no data for " + peerTimeout.toMillis() + " ms while " + what);
        }
        Progress.poll();
        if (now - since > FULL_SOCKET_SPIN_NANOS) {
            LockSupport.parkNanos(FULL_SOCKET_NAP_NANOS);
        } else {
            Thread.onSpinWait();
        }
    }

    /**
     * Copies into {@code b} (from its position) what of a large frame comes next, and its tag once the last byte is
     * in, and flips it for writing; returns the tag, made (or empty, for bare frames) or still null.
     */
    private ByteBuffer copyNext(
            final ByteBuffer b,
            final ByteBuffer head,
            final ByteBuffer rest,
            final LargeTag largeTag,
            final ByteBuffer tagSoFar) {
        ByteBuffer tag = tagSoFar;
        fill(b, head);
        if (rest != null) {
            fill(b, rest);
        }
        if (tag == null && !head.hasRemaining() && (rest == null || !rest.hasRemaining())) {
            largeTag.advance(Long.MAX_VALUE);
            tag = ByteBuffer.allocate(FrameMac.TAG_BYTES);
            tagger.finish(tag, 0);
        }
        if (tag != null) {
            fill(b, tag);
        }
        b.flip();
        return tag;
    }

    /**
     * The tag of a large frame, fed from the frame's sources (its start, the head array, the tail buffer, which are
     * not changed), ahead of or behind the copy that writes them.
     */
    private static final class LargeTag {
        private final FrameMac.Tagger tagger;
        private final byte[] start;
        private final byte[] head;
        private final int headOffset;
        private final int headLength;
        private final ByteBuffer tail;
        private final long total;
        private long done;

        LargeTag(
                final FrameMac.Tagger tagger,
                final int lengthPrefix,
                final byte kind,
                final byte[] head,
                final int headOffset,
                final int headLength,
                final ByteBuffer tail) {
            this.tagger = tagger;
            this.start = ByteBuffer.allocate(HEADER_LENGTH)
                    .putInt(lengthPrefix)
                    .put(kind)
                    .array();
            this.head = head;
            this.headOffset = headOffset;
            this.headLength = headLength;
            this.tail = tail;
            this.total = (long) HEADER_LENGTH + headLength + (tail == null ? 0 : tail.remaining());
        }

        /** Feeds {@code bytes} more of the frame, or what is left of it. */
        void advance(final long bytes) {
            final long end = Math.min(total, done + Math.min(bytes, total));
            while (done < end) {
                final int n;
                if (done < HEADER_LENGTH) {
                    n = (int) Math.min(HEADER_LENGTH - done, end - done);
                    tagger.update(start, (int) done, n);
                } else if (done < HEADER_LENGTH + headLength) {
                    final int from = (int) (done - HEADER_LENGTH);
                    n = (int) Math.min(headLength - from, end - done);
                    tagger.update(head, headOffset + from, n);
                } else {
                    n = (int) (end - done);
                    tagger.update(tail, tail.position() + (int) (done - HEADER_LENGTH - headLength), n);
                }
                done += n;
            }
        }
    }

    private static void fill(final ByteBuffer into, final ByteBuffer from) {
        final int n = Math.min(into.remaining(), from.remaining());
        if (n > 0) {
            into.put(into.position(), from, from.position(), n).position(into.position() + n);
            from.position(from.position() + n);
        }
    }
}
