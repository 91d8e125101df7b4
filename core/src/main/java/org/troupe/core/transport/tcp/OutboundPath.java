package org.troupe.core.transport.tcp;

import static org.troupe.core.transport.tcp.FrameDescriptor.HEADER_LENGTH;
import static org.troupe.core.transport.tcp.FrameDescriptor.KIND_OFFSET;
import static org.troupe.core.transport.tcp.FrameDescriptor.PING;
import static org.troupe.core.transport.tcp.FrameDescriptor.frameLength;
import static org.troupe.core.transport.tcp.FrameDescriptor.lengthField;
import static org.troupe.core.transport.tcp.FrameDescriptor.payloadLength;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOutboundBuffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;

/**
 * A link's outbound path: frames written straight to the socket by the sending thread when nothing is queued before
 * them, queued for the event loop otherwise (a burst leaves as one write), large ones written a chunk at a time
 * ({@link LargeFrameWriter}); tags made for each ({@link FrameMac}); senders held back while too much waits to leave,
 * and the link's reads held back while the answers its handlers sent pile up ({@link AnswerFlow}).
 *
 * <p>Thread-safe: {@link #lock} guards the socket's writing side and the queue; see the package's description.
 */
final class OutboundPath {
    private static final int INITIAL_BYTES = 4096;
    /** Frames up to this size are written from a direct buffer whole; larger ones by {@link LargeFrameWriter}. */
    static final int DIRECT_WRITE_MAX_BYTES = 1 << 20;
    /** How many bytes may wait to be written before a sender is held back ({@link #awaitRoom}). */
    static final long MAX_PENDING_BYTES = 32L << 20;

    private final DirectSocketChannel channel;
    private final TcpLink link;
    /** The largest length field the peer accepts (a message, its kind and its tag). */
    private final int maxFrameBytes;
    /** Tags our frames ({@link FrameMac}); null when the runtimes agreed on bare frames. */
    private final FrameMac sending;
    /** {@link FrameMac#TAG_BYTES} after each frame, or none. */
    private final int tagBytes;
    /** Guards writing: direct writes and the frames waiting for the event loop. */
    private final Object lock = new Object();

    private volatile ByteBuf outboundFrames;
    private boolean flushQueued;
    /** Frames handed to Netty and not yet written: while there are any, no direct write may overtake them. */
    private int queuedWrites;
    /** Where direct writes are made, and large ones a chunk at a time; guarded by lock, or by writingLarge. */
    ByteBuffer directBuffer = ByteBuffer.allocateDirect(INITIAL_BYTES);
    /** The answers (frames sent by handlers) queued or handed to Netty, which may hold reading back. */
    private final AnswerFlow answers = new AnswerFlow(lock);
    /** Set while a thread writes a large frame straight to the socket ({@link LargeFrameWriter}); set under lock. */
    private volatile boolean writingLarge;
    /**
     * Taken by a sender before {@link #lock}, and held until its frame is written or queued: the order of the
     * frames, so that a frame of up to {@link #DIRECT_WRITE_MAX_BYTES} is tagged, with its place in the sequence,
     * before the lock is taken. The event loop takes the lock to flush, and a tag's cost inside it made senders and
     * the event loop contend (one-way calls 40% slower).
     */
    private final Object order = new Object();
    /** Tags the frames; guarded by {@link #order}. Null when the runtimes agreed on bare frames. */
    private final FrameMac.Tagger tagger;
    /** A frame's length prefix and kind, as tagged; guarded by {@link #order}. */
    private final byte[] taggedStart = new byte[HEADER_LENGTH];
    /** The tag of the frame being sent; guarded by {@link #order}. */
    private final byte[] frameTag = new byte[FrameMac.TAG_BYTES];

    private final LargeFrameWriter largeWriter;

    /**
     * @param link what fails when the socket does, and names the peer in what senders are told
     * @param maxFrameBytes the largest length field the peer accepts
     * @param peerTimeout how long a sender waits for a peer that takes nothing
     */
    OutboundPath(
            final DirectSocketChannel channel,
            final TcpLink link,
            final int maxFrameBytes,
            final Duration peerTimeout,
            final FrameMac sending) {
        this.channel = channel;
        this.link = link;
        this.maxFrameBytes = maxFrameBytes;
        this.sending = sending;
        this.tagBytes = sending == null ? 0 : FrameMac.TAG_BYTES;
        this.tagger = sending == null ? null : sending.tagger();
        this.largeWriter = new LargeFrameWriter(this, channel, link, peerTimeout, sending);
    }

    /**
     * Writes a frame: straight to the socket from this thread when nothing is queued before it and it is not to
     * be batched (a call whose caller waits), else behind what is queued, through the event loop. Frames queued
     * between two turns of the event loop go out as one write, so a burst of one-way calls costs a few system
     * calls, not one each.
     */
    void write(
            final byte kind,
            final byte[] frame,
            final int offset,
            final int headLength,
            final ByteBuffer tail,
            final boolean batch) {
        Objects.checkFromIndexSize(offset, headLength, frame.length); // before anything is taken
        final long total = (long) headLength + (tail == null ? 0 : tail.remaining()); // over 2 GiB as it is
        if (lengthField(0, tagBytes) + total > maxFrameBytes) { // the peer would close the link on it
            throw new IllegalArgumentException("A message of " + total + " bytes cannot be sent: at most "
                    + payloadLength(maxFrameBytes, tagBytes)
                    + " are accepted (troupe.serialization.maxMessageBytes)");
        }
        final int length = (int) total;
        if (!link.isOpen()) {
            final String reason = link.closeReason();
            throw new IllegalStateException("the link to " + link.peerRuntimeId() + " at " + link.peerAddress()
                    + " is closed" + (reason == null ? "" : " (" + reason + ")"));
        }
        final boolean tagged = sending != null && HEADER_LENGTH + length <= DIRECT_WRITE_MAX_BYTES;
        boolean schedule = false;
        boolean large = false;
        boolean burstWritten = false;
        boolean resumeReads = false;
        synchronized (order) {
            if (tagged) {
                tag(kind, frame, offset, headLength, tail, length);
            }
            try {
                synchronized (lock) {
                    int written = -1;
                    // Nothing handed to Netty is unwritten and no large write owns the socket: this thread may write.
                    final boolean writeHere = !batch && queuedWrites == 0 && !writingLarge;
                    if (writeHere && outboundFrames == null) {
                        // A handler holds a reading lock: it must not wait for room.
                        if (HEADER_LENGTH + length > DIRECT_WRITE_MAX_BYTES
                                && !channel.eventLoop().inEventLoop()
                                && !InboundFramer.inHandler()) {
                            writingLarge = true; // taken: from now on other frames queue behind this one
                            large = true;
                            // Its place in the sequence is here, before the frames queued behind it.
                            if (sending != null) {
                                sending.start(largeWriter.tagger, (long) HEADER_LENGTH + length);
                            }
                        } else {
                            written = writeDirect(kind, frame, offset, headLength, tail, length);
                            if (written == frameLength(length, tagBytes)) {
                                return;
                            }
                            schedule = queue(kind, frame, offset, headLength, tail, length, written, tagged);
                        }
                    } else if (writeHere && HEADER_LENGTH + length <= DIRECT_WRITE_MAX_BYTES) {
                        // Someone waits for this frame, behind a burst queued for the event loop: this thread
                        // writes them all now, as the event loop may not get a core soon (the waiter will spin).
                        final boolean flushWasQueued = flushQueued;
                        queue(kind, frame, offset, headLength, tail, length, -1, tagged);
                        burstWritten = writeQueued();
                        if (burstWritten) {
                            flushQueued = flushWasQueued; // a flush already scheduled finds nothing, and clears it
                            resumeReads = answers.answersLeft(); // as when the event loop writes them
                        } else {
                            schedule = !flushWasQueued;
                        }
                    } else {
                        schedule = queue(kind, frame, offset, headLength, tail, length, written, tagged);
                    }
                }
            } catch (RuntimeException | Error e) {
                // While the link is open, nothing of the frame left nor is queued (a frame that fails half-way
                // through closes it): its place in the sequence goes to the next.
                if (tagged && link.isOpen()) {
                    sending.giveBack();
                }
                throw e;
            }
        }
        if (large) {
            largeWriter.write(kind, frame, offset, headLength, tail, length);
            return;
        }
        if (burstWritten) {
            if (resumeReads) {
                channel.config().setAutoRead(true);
            }
            return;
        }
        if (schedule) {
            scheduleFlush();
        }
        // Not in a frame's handler (its thread holds a link's reading, which may be what frees room), nor for a
        // heartbeat (the timer thread sends every link's).
        if (kind != PING
                && pendingBytes() > MAX_PENDING_BYTES
                && !channel.eventLoop().inEventLoop()
                && !InboundFramer.inHandler()) {
            awaitRoom();
        }
    }

    /**
     * Takes the frame's place in the sequence and writes its tag into {@link #frameTag}; holds {@link #order}. If
     * the tag fails (its payload cannot be read), the frame is not sent and gives its place back.
     */
    private void tag(
            final byte kind,
            final byte[] frame,
            final int offset,
            final int headLength,
            final ByteBuffer tail,
            final int length) {
        try {
            sending.start(tagger, (long) HEADER_LENGTH + length);
            final int prefix = lengthField(length, tagBytes); // big-endian, as the frame carries it
            taggedStart[0] = (byte) (prefix >>> 24);
            taggedStart[1] = (byte) (prefix >>> 16);
            taggedStart[2] = (byte) (prefix >>> 8);
            taggedStart[3] = (byte) prefix;
            taggedStart[KIND_OFFSET] = kind;
            tagger.update(taggedStart, 0, HEADER_LENGTH);
            tagger.update(frame, offset, headLength);
            if (tail != null) {
                tagger.update(tail, tail.position(), tail.remaining());
            }
            tagger.finish(frameTag, 0);
        } catch (RuntimeException | Error e) {
            sending.giveBack();
            throw e;
        }
    }

    /** Bytes queued and not yet written: in {@link #outboundFrames} and in Netty's buffer. */
    long pendingBytes() {
        final ByteBuf queued = outboundFrames; // racy: an estimate is enough to hold a sender back
        final ChannelOutboundBuffer netty = channel.unsafe().outboundBuffer();
        return (queued == null ? 0 : queued.readableBytes()) + (netty == null ? 0 : netty.totalPendingWriteBytes());
    }

    /**
     * Holds a sender back while more than {@link #MAX_PENDING_BYTES} wait to be written, so that a peer that reads
     * slowly, or not at all, cannot make this JVM queue without bound; reads meanwhile, as a large write does, and
     * fails once the link closes or nothing leaves for the peer timeout.
     */
    private void awaitRoom() {
        final long start = System.nanoTime();
        long pending = pendingBytes();
        long progressAt = start;
        try {
            while (pending > MAX_PENDING_BYTES) {
                largeWriter.waitForRoom(start, progressAt, "frames waited to be written");
                final long left = pendingBytes();
                if (left < pending) {
                    progressAt = System.nanoTime();
                }
                pending = left;
            }
        } catch (IOException e) {
            throw failed(e);
        }
    }

    /** Closes the link for a failure of its socket, and says so to the sender. */
    IllegalStateException failed(final IOException e) {
        link.close(e.toString());
        return new IllegalStateException(
                "the link to " + link.peerRuntimeId() + " at " + link.peerAddress() + " failed: " + e, e);
    }

    /** Queues a frame (or what a direct write left of it) for the event loop; whether a flush must be scheduled. */
    boolean queue(
            final byte kind,
            final byte[] frame,
            final int offset,
            final int headLength,
            final ByteBuffer tail,
            final int length,
            final int written,
            final boolean tagged) {
        if (outboundFrames == null) {
            outboundFrames = channel.alloc().directBuffer(Math.max(INITIAL_BYTES, frameLength(length, tagBytes)));
        } else if (outboundFrames.readerIndex() > 0 && outboundFrames.writableBytes() < frameLength(length, tagBytes)) {
            // Senders write the queue from its front (writeQueued) while its flush waits: drop what left before it
            // grows, as Netty grows a buffer past its end and keeps what was read (the room would grow by every
            // frame queued, however few bytes wait).
            outboundFrames.discardReadBytes();
        }
        final int frameStart = outboundFrames.writerIndex();
        boolean placed = false; // its place in the sequence taken here
        try {
            if (written >= 0) { // the rest of a direct write the socket did not take whole
                outboundFrames.writeBytes(directBuffer);
            } else {
                outboundFrames
                        .writeInt(lengthField(length, tagBytes))
                        .writeByte(kind)
                        .writeBytes(frame, offset, headLength);
                if (tail != null) {
                    outboundFrames.writeBytes(tail.duplicate());
                }
                if (sending != null && !tagged) { // over DIRECT_WRITE_MAX_BYTES, sent by a thread that must not wait
                    placed = true;
                    sending.start(tagger, (long) HEADER_LENGTH + length);
                    tagger.update(
                            outboundFrames.nioBuffer(frameStart, HEADER_LENGTH + length), 0, HEADER_LENGTH + length);
                    tagger.finish(frameTag, 0);
                }
                if (sending != null) {
                    outboundFrames.writeBytes(frameTag);
                }
            }
        } catch (RuntimeException | Error e) { // no part of a frame may stay queued: the peer would misread
            outboundFrames.writerIndex(frameStart);
            if (written > 0) { // its start is on the wire
                link.close(e.toString());
            } else if (placed) { // nothing of it left: the next frame takes its place
                sending.giveBack();
            }
            throw e;
        }
        if (InboundFramer.inHandler()) {
            answers.queued(frameLength(length, tagBytes));
        }
        final boolean schedule = !flushQueued && !writingLarge; // a large write flushes the queue when it ends
        flushQueued |= schedule;
        return schedule;
    }

    /** Writes the frames queued for the event loop as far as the socket takes them; whether all left. Holds lock. */
    private boolean writeQueued() {
        final ByteBuf frames = outboundFrames;
        try {
            frames.skipBytes(channel.socket().write(frames.nioBuffer()));
        } catch (IOException e) {
            throw failed(e);
        }
        if (frames.isReadable()) {
            return false;
        }
        frames.release();
        outboundFrames = null;
        answers.queueWritten();
        return true;
    }

    void scheduleFlush() {
        try {
            channel.eventLoop().execute(this::flushOutbound);
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException(
                    "the link to " + link.peerRuntimeId() + " at " + link.peerAddress()
                            + " is closed (its transport stopped)",
                    e);
        }
    }

    /**
     * Writes what the socket takes now, without blocking; returns the bytes written, the frame staying in
     * {@link #directBuffer}; or -1 for a frame too large to try. Holds {@link #lock}.
     */
    private int writeDirect(
            final byte kind,
            final byte[] frame,
            final int offset,
            final int headLength,
            final ByteBuffer tail,
            final int length) {
        if (HEADER_LENGTH + length > DIRECT_WRITE_MAX_BYTES) {
            // A large frame sent by a thread that must not wait (the event loop, a handler): Netty queues it, and
            // queue() tags it, as it was not tagged before the lock (whatever room directBuffer has grown to).
            return -1;
        }
        final int frameBytes = frameLength(length, tagBytes);
        if (directBuffer.capacity() < frameBytes) {
            directBuffer = ByteBuffer.allocateDirect(Math.max(frameBytes, directBuffer.capacity() * 2));
        }
        final ByteBuffer b = directBuffer.clear();
        b.putInt(lengthField(length, tagBytes)).put(kind).put(frame, offset, headLength);
        if (tail != null) {
            b.put(tail.duplicate());
        }
        if (sending != null) { // tagged before the lock, as every frame of up to DIRECT_WRITE_MAX_BYTES is
            b.put(frameTag);
        }
        b.flip();
        try {
            return channel.socket().write(b);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    /** On the event loop: hands every frame queued since the last flush to Netty at once, as one write. */
    private void flushOutbound() {
        final ByteBuf frames;
        final long answersHanded;
        synchronized (lock) {
            if (writingLarge) { // it flushes what is queued when it ends
                flushQueued = false;
                return;
            }
            frames = outboundFrames;
            outboundFrames = null;
            flushQueued = false;
            if (frames == null) {
                return;
            }
            queuedWrites++;
            answersHanded = answers.handedOver();
        }
        channel.writeAndFlush(frames).addListener(f -> {
            final boolean resume;
            synchronized (lock) {
                queuedWrites--;
                answers.written(answersHanded);
                resume = answers.answersLeft();
            }
            if (resume) {
                channel.config().setAutoRead(true);
            }
        });
    }

    /** Whether reading this link must wait for the answers its handlers sent to leave ({@link AnswerFlow}). */
    boolean holdReads() {
        return answers.holdReads();
    }

    /**
     * The large write ended (written or failed): frames may be written again, and those queued meanwhile are
     * flushed.
     */
    void largeWriteEnded() {
        final boolean flush;
        synchronized (lock) {
            writingLarge = false;
            flush = outboundFrames != null && !flushQueued;
            flushQueued |= flush;
        }
        if (flush) {
            try {
                scheduleFlush();
            } catch (IllegalStateException closed) {
                // The link ends anyway; what was queued is released when it does.
            }
        }
    }

    /** Whether a thread writes a large frame now; heartbeats are not queued behind it. */
    boolean writingLarge() {
        return writingLarge;
    }

    /** Whether reading waits for the answers queued to leave. */
    boolean readsHeld() {
        return answers.readsHeld();
    }

    /** For tests: the frames queued for the event loop, or null. */
    ByteBuf queuedFrames() {
        return outboundFrames;
    }

    /** For tests: the lock that guards writing. */
    Object lock() {
        return lock;
    }

    /** The link ended: what is queued will never leave. */
    void release() {
        synchronized (lock) {
            if (outboundFrames != null) {
                outboundFrames.release();
                outboundFrames = null;
            }
        }
    }
}
