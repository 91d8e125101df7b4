package org.troupe.core.transport.tcp;

import static org.troupe.core.transport.tcp.FrameDescriptor.HEADER_LENGTH;
import static org.troupe.core.transport.tcp.FrameDescriptor.KIND_OFFSET;
import static org.troupe.core.transport.tcp.FrameDescriptor.MESSAGE;
import static org.troupe.core.transport.tcp.FrameDescriptor.PING;
import static org.troupe.core.transport.tcp.FrameDescriptor.frameLength;
import static org.troupe.core.transport.tcp.FrameDescriptor.lengthField;
import static org.troupe.core.transport.tcp.FrameDescriptor.payloadLength;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.troupe.core.spi.Progress;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;

/**
 * A link over one Netty channel, after the handshake: message frames, heartbeats and the end of the link.
 *
 * <p>Writes go straight to the socket from the sending thread when nothing is queued before them. Reads are done
 * by whoever gets there first, one at a time: the event loop when the socket becomes readable, or a thread that
 * spins while it waits for a reply or a request ({@link #poll()}), which then handles the frame itself instead of
 * waiting for the event loop to be scheduled.
 */
final class TcpLink extends ChannelInboundHandlerAdapter implements Link {
    private static final int OUTBOUND_INITIAL_BYTES = 4096;
    private static final int DIRECT_WRITE_MAX_BYTES = 1 << 20;
    /** How many bytes may wait to be written before a sender is held back ({@link #awaitRoom}). */
    private static final long MAX_PENDING_BYTES = 32L << 20;
    private static final byte[] NO_BYTES = new byte[0];
    /** When an unwatched socket first and at most checks whether anyone still reads it; see watchIfNobodySpins. */
    private static final long UNWATCHED_FIRST_CHECK_NANOS = 1_000_000;
    private static final long UNWATCHED_LAST_CHECK_NANOS = 32_000_000;
    /** How long a large write spins on a full socket before it naps between tries, and how long a nap is. */
    private static final long FULL_SOCKET_SPIN_NANOS = 100_000;
    private static final long FULL_SOCKET_NAP_NANOS = 20_000;
    /** How much of a large frame's tag is made each time the socket is found full: a few microseconds' work. */
    private static final long LARGE_TAG_STEP_BYTES = 64 * 1024;

    private final DirectSocketChannel channel;
    private final String peerRuntimeId;
    private final String peerAddress;
    /** What this runtime announces to the peer, once it listens. */
    private volatile String localAddress;
    private final LinkHandler handler;
    private final TcpTransport transport;
    private volatile String closeReason;
    /** Guards writing: direct writes and the frames waiting for the event loop. */
    private final Object outbound = new Object();
    private volatile ByteBuf outboundFrames;
    private boolean flushQueued;
    /** Frames handed to Netty and not yet written: while there are any, no direct write may overtake them. */
    private int queuedWrites;
    private ByteBuffer directBuffer = ByteBuffer.allocateDirect(OUTBOUND_INITIAL_BYTES);
    /** Bytes of answers (frames sent by handlers) queued, and handed to Netty and not yet written; guarded by outbound. */
    private long answersQueued;
    private long answersInFlight;
    /** Set while reading waits for answers to leave ({@link #holdReads}); guarded by outbound. */
    private volatile boolean readsHeld;
    /** Set while a thread writes a large frame straight to the socket ({@link #writeLarge}); set under outbound. */
    private volatile boolean writingLarge;
    /** Held by the one thread reading the socket; {@link #framer} is guarded by it. */
    private final ReentrantLock reading = new ReentrantLock();
    /** The bytes read and not yet handled, cut into frames; guarded by {@link #reading}. */
    private final InboundFramer framer;
    private volatile long lastHeard = System.nanoTime();
    private ScheduledFuture<?> heartbeats;
    /** Set while a check of the peer's silence waits for the event loop (which may be busy for long). */
    private volatile boolean silenceCheckQueued;
    /** Tags our frames ({@link FrameMac}); null when the runtimes agreed on bare frames. */
    private final FrameMac sending;
    /** {@link FrameMac#TAG_BYTES} after each frame, or none. */
    private final int tagBytes;
    /**
     * Hashes the frames of up to {@link #DIRECT_WRITE_MAX_BYTES} before {@link #outbound} is taken, guarded by
     * itself: the event loop takes outbound to flush, and a tag's cost inside it made senders and the event loop
     * contend (one-way calls 40% slower); only the pad of the frame's place in the sequence is added under it.
     */
    private final FrameMac.Tagger hashTagger = new FrameMac.Tagger();
    /** A frame's length prefix and kind, as hashed; guarded by {@link #hashTagger}. */
    private final byte[] hashedStart = new byte[HEADER_LENGTH];
    /** Tags the larger frames queued under {@link #outbound}. */
    private final FrameMac.Tagger outboundTagger = new FrameMac.Tagger();
    private final ByteBuffer outboundTag = ByteBuffer.allocate(FrameMac.TAG_BYTES);
    /** Tags the large frame being written ({@link #writeLarge}), outside {@link #outbound}. */
    private final FrameMac.Tagger largeTagger = new FrameMac.Tagger();

    TcpLink(final DirectSocketChannel channel, final String peerRuntimeId, final String peerAddress,
            final LinkHandler handler, final TcpTransport transport, final FrameMac sending,
            final FrameMac receiving) {
        this.channel = channel;
        this.peerRuntimeId = peerRuntimeId;
        this.peerAddress = peerAddress;
        this.handler = handler;
        this.transport = transport;
        this.sending = sending;
        this.tagBytes = sending == null ? 0 : FrameMac.TAG_BYTES;
        this.framer = new InboundFramer(this, handler, transport.maxFrameBytes(), receiving);
    }

    /**
     * Once the link is in the pipeline: heartbeats, and the peer's silence watched, on the transport's timer
     * thread, so that a handler running long on the event loop (or on any thread reading) delays neither.
     */
    void start() {
        final long period = transport.heartbeat().toMillis();
        heartbeats = transport.timer().scheduleAtFixedRate(this::heartbeat, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * On the timer thread: a ping every period, busy or not (cheaper than noting each write's time), written at once
     * rather than queued for the event loop, which may be busy; none while other bytes wait to leave, which the
     * peer will hear, so that this thread never waits for room.
     */
    private void heartbeat() {
        try {
            if (!writingLarge && pendingBytes() == 0) {
                write(PING, NO_BYTES, 0, 0, null, false);
            }
            if (System.nanoTime() - lastHeard > transport.peerTimeout().toNanos() && !silenceCheckQueued) {
                silenceCheckQueued = true;
                channel.eventLoop().execute(this::closeIfSilent);
            }
        } catch (IllegalStateException | RejectedExecutionException closed) {
            // The link, or the transport, ends anyway; channelInactive reports it.
        }
    }

    /**
     * On the event loop: closes the link if the peer has been silent for the peer timeout, after reading what its
     * socket holds. A link looks silent to a check that runs after a long pause (of this JVM, or of the thread that
     * should have read it) though the peer's heartbeats wait in the socket: those count. While another thread
     * reads the link (a handler running long holds it), the peer is not blamed for what nobody could read.
     */
    private void closeIfSilent() {
        silenceCheckQueued = false;
        if (!reading.tryLock()) {
            return;
        }
        try {
            if (readSocket() < 0) {
                close("connection closed by the peer");
                return;
            }
        } catch (IOException | RuntimeException | Error e) {
            close(e.toString());
            return;
        } finally {
            reading.unlock();
        }
        if (System.nanoTime() - lastHeard > transport.peerTimeout().toNanos()) {
            close("nothing heard from it for " + transport.peerTimeout().toMillis() + " ms");
        }
    }

    @Override
    public String peerRuntimeId() {
        return peerRuntimeId;
    }

    @Override
    public String peerAddress() {
        return peerAddress;
    }

    @Override
    public String localAddress() {
        final String known = localAddress;
        if (known != null) {
            return known;
        }
        final String now = transport.announcedOn(channel);
        if (!now.isEmpty()) { // fixed once the runtime listens; until then it may start to
            localAddress = now;
        }
        return now;
    }

    @Override
    public void send(final byte[] frame, final int offset, final int length, final boolean batch) {
        write(MESSAGE, frame, offset, length, null, batch);
    }

    @Override
    public void send(final byte[] head, final int headLength, final ByteBuffer tail, final boolean batch) {
        write(MESSAGE, head, 0, headLength, tail, batch);
    }

    /**
     * Writes a frame: straight to the socket from this thread when nothing is queued before it and it is not to
     * be batched (a call whose caller waits), else behind what is queued, through the event loop. Frames queued
     * between two turns of the event loop go out as one write, so a burst of one-way calls costs a few system
     * calls, not one each.
     */
    private void write(final byte kind, final byte[] frame, final int offset, final int headLength,
                       final ByteBuffer tail, final boolean batch) {
        java.util.Objects.checkFromIndexSize(offset, headLength, frame.length); // before anything is taken
        final long total = (long) headLength + (tail == null ? 0 : tail.remaining()); // over 2 GiB as it is
        if (lengthField(0, tagBytes) + total > transport.maxFrameBytes()) { // the peer would close the link on it
            throw new IllegalArgumentException("A message of " + total + " bytes cannot be sent: at most "
                + payloadLength(transport.maxFrameBytes(), tagBytes)
                + " are accepted (troupe.serialization.maxMessageBytes)");
        }
        final int length = (int) total;
        if (!channel.isActive()) {
            throw new IllegalStateException("the link to " + peerRuntimeId + " at " + peerAddress + " is closed"
                + (closeReason == null ? "" : " (" + closeReason + ")"));
        }
        final boolean hashed = sending != null && HEADER_LENGTH + length <= DIRECT_WRITE_MAX_BYTES;
        long h0 = 0;
        long h1 = 0;
        if (hashed) {
            synchronized (hashTagger) {
                sending.begin(hashTagger, (long) HEADER_LENGTH + length);
                final int prefix = lengthField(length, tagBytes); // big-endian, as the frame carries it
                hashedStart[0] = (byte) (prefix >>> 24);
                hashedStart[1] = (byte) (prefix >>> 16);
                hashedStart[2] = (byte) (prefix >>> 8);
                hashedStart[3] = (byte) prefix;
                hashedStart[KIND_OFFSET] = kind;
                hashTagger.update(hashedStart, 0, HEADER_LENGTH);
                hashTagger.update(frame, offset, headLength);
                if (tail != null) {
                    hashTagger.update(tail, tail.position(), tail.remaining());
                }
                hashTagger.digest();
                h0 = hashTagger.hash0();
                h1 = hashTagger.hash1();
            }
        }
        boolean schedule = false;
        boolean large = false;
        boolean burstWritten = false;
        boolean resumeReads = false;
        synchronized (outbound) {
            int written = -1;
            // Nothing handed to Netty is unwritten and no large write owns the socket: this thread may write.
            final boolean writeHere = !batch && queuedWrites == 0 && !writingLarge;
            if (writeHere && outboundFrames == null) {
                if (HEADER_LENGTH + length > DIRECT_WRITE_MAX_BYTES && !channel.eventLoop().inEventLoop()
                    && !InboundFramer.inHandler()) { // a handler holds a reading lock: it must not wait for room
                    writingLarge = true; // taken: from now on other frames queue behind this one
                    large = true;
                    if (sending != null) { // its place in the sequence is here, before the frames queued behind it
                        sending.start(largeTagger, (long) HEADER_LENGTH + length);
                    }
                } else {
                    written = writeDirect(kind, frame, offset, headLength, tail, length, h0, h1);
                    if (written == frameLength(length, tagBytes)) {
                        return;
                    }
                    schedule = queue(kind, frame, offset, headLength, tail, length, written, hashed, h0, h1);
                }
            } else if (writeHere && HEADER_LENGTH + length <= DIRECT_WRITE_MAX_BYTES) {
                // Someone waits for this frame, behind a burst queued for the event loop: this thread writes them
                // all now, as the event loop may not get a core soon (the waiter will spin on one).
                final boolean flushWasQueued = flushQueued;
                queue(kind, frame, offset, headLength, tail, length, -1, hashed, h0, h1);
                burstWritten = writeQueued();
                if (burstWritten) {
                    flushQueued = flushWasQueued; // a flush already scheduled finds nothing, and clears it
                    resumeReads = answersLeft(); // as when the event loop writes them
                } else {
                    schedule = !flushWasQueued;
                }
            } else {
                schedule = queue(kind, frame, offset, headLength, tail, length, written, hashed, h0, h1);
            }
        }
        if (large) {
            writeLarge(kind, frame, offset, headLength, tail, length);
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
        if (kind != PING && pendingBytes() > MAX_PENDING_BYTES && !channel.eventLoop().inEventLoop()
            && !InboundFramer.inHandler()) {
            awaitRoom();
        }
    }

    /** Bytes queued and not yet written: in {@link #outboundFrames} and in Netty's buffer. */
    private long pendingBytes() {
        final ByteBuf queued = outboundFrames; // racy: an estimate is enough to hold a sender back
        final io.netty.channel.ChannelOutboundBuffer netty = channel.unsafe().outboundBuffer();
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
                waitForRoom(start, progressAt, "frames waited to be written");
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

    /**
     * One step of waiting for the peer to take data: fails once the link is closed, or when nothing has left since
     * {@code progressAt} for the peer timeout; else reads what arrives (the peer may be waiting for room as well),
     * spinning for a while after {@code since}, then napping.
     */
    private void waitForRoom(final long since, final long progressAt, final String what) throws IOException {
        if (!channel.isActive()) {
            throw new IOException("the link closed while " + what);
        }
        final long now = System.nanoTime();
        if (now - progressAt > transport.peerTimeout().toNanos()) {
            throw new IOException("the peer took no data for " + transport.peerTimeout().toMillis() + " ms while "
                + what);
        }
        Progress.poll();
        if (now - since > FULL_SOCKET_SPIN_NANOS) {
            LockSupport.parkNanos(FULL_SOCKET_NAP_NANOS);
        } else {
            Thread.onSpinWait();
        }
    }

    /** Closes the link for a failure of its socket, and says so to the sender. */
    private IllegalStateException failed(final IOException e) {
        close(e.toString());
        return new IllegalStateException("the link to " + peerRuntimeId + " at " + peerAddress + " failed: " + e, e);
    }

    /** Queues a frame (or what a direct write left of it) for the event loop; whether a flush must be scheduled. */
    private boolean queue(final byte kind, final byte[] frame, final int offset, final int headLength,
                          final ByteBuffer tail, final int length, final int written, final boolean hashed,
                          final long h0, final long h1) {
        if (outboundFrames == null) {
            outboundFrames = channel.alloc().directBuffer(Math.max(OUTBOUND_INITIAL_BYTES, frameLength(length, tagBytes)));
        }
        final int frameStart = outboundFrames.writerIndex();
        boolean tagged = false; // once it is, its place in the sequence is taken: the frame cannot be dropped
        try {
            if (written >= 0) { // the rest of a direct write the socket did not take whole
                outboundFrames.writeBytes(directBuffer);
            } else {
                outboundFrames.writeInt(lengthField(length, tagBytes)).writeByte(kind).writeBytes(frame, offset, headLength);
                if (tail != null) {
                    outboundFrames.writeBytes(tail.duplicate());
                }
                if (hashed) {
                    tagged = true;
                    sending.seal(h0, h1);
                    outboundFrames.writeLongLE(sending.tag0()).writeLongLE(sending.tag1());
                } else if (sending != null) { // over DIRECT_WRITE_MAX_BYTES, sent by a thread that must not wait
                    tagged = true;
                    sending.start(outboundTagger, (long) HEADER_LENGTH + length);
                    outboundTagger.update(outboundFrames.nioBuffer(frameStart, HEADER_LENGTH + length), 0, HEADER_LENGTH + length);
                    outboundTagger.finish(outboundTag, 0);
                    outboundFrames.writeBytes(outboundTag.array());
                }
            }
        } catch (RuntimeException | Error e) { // no part of a frame may stay queued: the peer would misread
            outboundFrames.writerIndex(frameStart);
            if (written > 0 || tagged) { // its start is on the wire, or its place in the sequence is taken
                close(e.toString());
            }
            throw e;
        }
        if (InboundFramer.inHandler()) {
            answersQueued += frameLength(length, tagBytes);
        }
        final boolean schedule = !flushQueued && !writingLarge; // a large write flushes the queue when it ends
        flushQueued |= schedule;
        return schedule;
    }

    /** Writes the frames queued for the event loop as far as the socket takes them; whether all left. Holds outbound. */
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
        answersQueued = 0;
        return true;
    }

    private void scheduleFlush() {
        try {
            channel.eventLoop().execute(this::flushOutbound);
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException("the link to " + peerRuntimeId + " at " + peerAddress
                + " is closed (its transport stopped)", e);
        }
    }

    /**
     * Writes what the socket takes now, without blocking; returns the bytes written, the frame staying in
     * {@link #directBuffer}; or -1 for a frame too large to try. Holds {@link #outbound}.
     */
    private int writeDirect(final byte kind, final byte[] frame, final int offset, final int headLength,
                            final ByteBuffer tail, final int length, final long h0, final long h1) {
        if (HEADER_LENGTH + length > DIRECT_WRITE_MAX_BYTES) {
            // A large frame sent by a thread that must not wait (the event loop, a handler): Netty queues it, and
            // queue() tags it, as it was not hashed before the lock (whatever room directBuffer has grown to).
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
        if (sending != null) { // hashed before the lock, as every frame of up to DIRECT_WRITE_MAX_BYTES is
            sending.seal(h0, h1);
            b.order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(sending.tag0()).putLong(sending.tag1())
                .order(java.nio.ByteOrder.BIG_ENDIAN);
        }
        b.flip();
        try {
            return channel.socket().write(b);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    /**
     * Writes a large frame from this thread, through {@link #directBuffer} a chunk at a time: each byte is copied
     * once, into memory the socket writes from, and nothing is queued behind the event loop. It owns the socket's
     * writing side ({@link #writingLarge}) without holding {@link #outbound}: frames sent meanwhile, by other
     * threads or by handlers this thread runs, queue behind it and never wait for it, and it flushes them when it
     * ends. While the socket is full it reads what arrives (the peer may be writing to us as well, and waiting for
     * room), and it gives up when the peer takes nothing for the peer timeout.
     */
    private void writeLarge(final byte kind, final byte[] frame, final int offset, final int headLength,
                            final ByteBuffer tail, final int length) {
        boolean started = false;
        try { // from the start: writingLarge is set and the frame's pad taken, which only the finally and catch undo
            if (directBuffer.capacity() < DIRECT_WRITE_MAX_BYTES) {
                directBuffer = ByteBuffer.allocateDirect(DIRECT_WRITE_MAX_BYTES);
            }
            final ByteBuffer head = ByteBuffer.wrap(frame, offset, headLength);
            final ByteBuffer rest = tail == null ? null : tail.duplicate();
            final ByteBuffer b = directBuffer.clear();
            b.putInt(lengthField(length, tagBytes)).put(kind);
            // The tag is made from the frame's sources while the socket is full, so it costs the sender little
            // time; whatever is left of it is made once the last byte is copied, and follows it.
            final LargeTag largeTag = sending == null ? null
                : new LargeTag(largeTagger, b.getInt(0), kind, frame, offset, headLength, tail);
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
            throw failed(e);
        } catch (RuntimeException | Error e) { // the payload could not be read (or a handler failed in a poll)
            if (started || sending != null) { // the peer would take what follows for the rest, or miss a tag
                close(e.toString());
            }
            throw e;
        } finally {
            final boolean flush;
            synchronized (outbound) {
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
    }

    /**
     * Copies into {@code b} (from its position) what of a large frame comes next, and its tag once the last byte is
     * in, and flips it for writing; returns the tag, made (or empty, for bare frames) or still null.
     */
    private ByteBuffer copyNext(final ByteBuffer b, final ByteBuffer head, final ByteBuffer rest,
                                final LargeTag largeTag, final ByteBuffer tagSoFar) {
        ByteBuffer tag = tagSoFar;
        fill(b, head);
        if (rest != null) {
            fill(b, rest);
        }
        if (tag == null && !head.hasRemaining() && (rest == null || !rest.hasRemaining())) {
            largeTag.advance(Long.MAX_VALUE);
            tag = ByteBuffer.allocate(FrameMac.TAG_BYTES);
            largeTagger.finish(tag, 0);
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

        LargeTag(final FrameMac.Tagger tagger, final int lengthPrefix, final byte kind, final byte[] head,
                 final int headOffset, final int headLength, final ByteBuffer tail) {
            this.tagger = tagger;
            this.start = ByteBuffer.allocate(HEADER_LENGTH).putInt(lengthPrefix).put(kind).array();
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

    /** On the event loop: hands every frame queued since the last flush to Netty at once, as one write. */
    private void flushOutbound() {
        final ByteBuf frames;
        final long answers;
        synchronized (outbound) {
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
            answers = answersQueued;
            answersQueued = 0;
            answersInFlight += answers;
        }
        channel.writeAndFlush(frames).addListener(f -> {
            final boolean resume;
            synchronized (outbound) {
                queuedWrites--;
                answersInFlight -= answers;
                resume = answersLeft();
            }
            if (resume) {
                channel.config().setAutoRead(true);
            }
        });
    }

    /**
     * Whether reading, held back for the answers queued ({@link #holdReads}), may resume now that enough of them
     * have left; it is then no longer held, and the caller turns reading on once outside the lock. Holds outbound.
     */
    private boolean answersLeft() {
        final boolean resume = readsHeld && answersQueued + answersInFlight < MAX_PENDING_BYTES / 2;
        readsHeld &= !resume;
        return resume;
    }

    /**
     * Whether reading this link must wait: the answers its frames' handlers sent (an echo, say, from the event
     * loop, which cannot wait for room) pile up unwritten, because the peer sends faster than it reads them. Then
     * nothing more is read until half of them have left, and the peer is held back by the socket instead of this
     * JVM queueing without bound. Only answers count: what other threads send waits for room itself.
     */
    private boolean holdReads() {
        synchronized (outbound) {
            if (answersQueued + answersInFlight <= MAX_PENDING_BYTES) {
                return false;
            }
            readsHeld = true;
        }
        return true;
    }

    @Override
    public boolean isOpen() {
        return channel.isActive();
    }

    @Override
    public void close(final String reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
        channel.close();
    }

    /**
     * Reads what has arrived, if no other thread is reading this link, and handles the whole frames; never blocks.
     * A thread already reading (a frame's handler that waits, and so polls) does not read again inside itself.
     */
    void poll() {
        if (reading.isHeldByCurrentThread() || !reading.tryLock()) {
            return;
        }
        try {
            if (readSocket() < 0) {
                close("connection closed by the peer");
            }
        } catch (IOException | RuntimeException | Error e) { // as the event loop's read does; not the waiter's
            close(e.toString());
        } finally {
            reading.unlock();
        }
    }

    /**
     * The event loop's read when the socket is readable: 0 to Netty (we handled the bytes), -1 at the end.
     *
     * <p>While a thread spins, it reads this socket itself, and the event loop would only be woken for every frame
     * to find it read already (or, finding the reader's lock held, be woken again and again until the spinner
     * drains the socket, taking a core from it): so the event loop stops watching the socket, until a waiter parks
     * ({@link #watchAgain}) or nobody has spun for a while ({@link #watchIfNobodySpins}).
     */
    int readFromEventLoop() throws IOException {
        if (reading.isHeldByCurrentThread()) {
            return 0;
        }
        if (Progress.someoneSpins()) {
            stopWatching();
        }
        if (!reading.tryLock()) {
            return 0; // another thread is reading; the socket stays readable if it leaves anything
        }
        try {
            return readSocket() < 0 ? -1 : 0;
        } finally {
            reading.unlock();
        }
    }

    /** On the event loop: no more read events for this socket while a spinner reads it. */
    private void stopWatching() {
        if (!channel.config().isAutoRead()) {
            return;
        }
        channel.config().setAutoRead(false);
        // Read after the flag is written, as a parking waiter reads the flag after it stops spinning: one of the
        // two sees the other, so the socket is never left unwatched with nobody spinning.
        if (!Progress.someoneSpins()) {
            channel.config().setAutoRead(true);
            return;
        }
        checkUnwatchedIn(UNWATCHED_FIRST_CHECK_NANOS);
    }

    private void checkUnwatchedIn(final long nanos) {
        channel.eventLoop().schedule(() -> watchIfNobodySpins(nanos), nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * On the event loop, while the socket is unwatched: watches it again once nobody has spun since the last
     * check. A spinner that got its reply and went on computing leaves the socket to nobody; frames nobody waits
     * for (a request for a busy object, a reply not yet touched) then wait until this check. While threads keep
     * spinning, checks grow rarer, up to {@link #UNWATCHED_LAST_CHECK_NANOS} apart: each wakes the event loop,
     * which on a small machine takes a core from a spinner for a while.
     */
    private void watchIfNobodySpins(final long sinceNanos) {
        if (channel.config().isAutoRead() || !channel.isActive()) {
            return;
        }
        if (Progress.spunWithin(sinceNanos)) {
            checkUnwatchedIn(Math.min(2 * sinceNanos, UNWATCHED_LAST_CHECK_NANOS));
        } else {
            channel.config().setAutoRead(true);
        }
    }

    /** Any thread: the event loop watches the socket again (a waiter parks, so it will not read). */
    void watchAgain() {
        if (!channel.config().isAutoRead()) {
            channel.config().setAutoRead(true);
        }
    }

    /** Reads until the socket has nothing more, handling each whole frame; -1 once the peer has closed. */
    private int readSocket() throws IOException {
        int total = 0;
        while (true) {
            if (readsHeld || holdReads()) {
                if (channel.eventLoop().inEventLoop()) {
                    channel.config().setAutoRead(false); // no read events meanwhile: the socket stays readable
                }
                return total;
            }
            final int n = framer.read(channel.socket());
            if (n < 0) {
                return -1;
            }
            if (n == 0) {
                return total;
            }
            total += n;
            lastHeard = System.nanoTime();
            framer.handleFrames();
        }
    }

    /** For tests: the event loop this link's channel belongs to. */
    io.netty.channel.EventLoop eventLoop() {
        return channel.eventLoop();
    }

    /** For tests: the room the link holds for bytes read and not yet handled. */
    int inboundCapacity() {
        return framer.capacity();
    }

    /** The bytes that followed the handshake in the same read, passed on when the handshake's decoder left. */
    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg) {
        final ByteBuf bytes = (ByteBuf) msg;
        reading.lock();
        try {
            framer.append(bytes);
            lastHeard = System.nanoTime();
            framer.handleFrames();
        } catch (RuntimeException e) {
            close(e.toString());
        } finally {
            reading.unlock();
            bytes.release();
        }
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause) {
        close(String.valueOf(cause));
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) {
        if (heartbeats != null) {
            heartbeats.cancel(false);
        }
        transport.removed(this);
        synchronized (outbound) {
            if (outboundFrames != null) {
                outboundFrames.release();
                outboundFrames = null;
            }
        }
        handler.closed(this, closeReason == null ? "connection closed" : closeReason);
    }

    @Override
    public String toString() {
        return "link to " + peerRuntimeId + " at " + peerAddress;
    }
}
