package org.troupe.core.transport.tcp;

import static org.troupe.core.transport.tcp.FrameDescriptor.KIND_OFFSET;
import static org.troupe.core.transport.tcp.FrameDescriptor.LENGTH_BYTES;
import static org.troupe.core.transport.tcp.FrameDescriptor.MESSAGE;
import static org.troupe.core.transport.tcp.FrameDescriptor.PAYLOAD_OFFSET;
import static org.troupe.core.transport.tcp.FrameDescriptor.framedLength;
import static org.troupe.core.transport.tcp.FrameDescriptor.lengthField;
import static org.troupe.core.transport.tcp.FrameDescriptor.payloadLength;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.function.IntFunction;
import org.troupe.core.transport.Delivery;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;
import org.troupe.core.transport.ReceiveBudget;

/**
 * A link's inbound side after the handshake: the bytes read and not yet handled, cut into frames
 * ({@link FrameDescriptor}), their tags checked, each message handed to the link's handler; and the policy of the
 * buffer that holds them (grown as a large frame's bytes arrive, given back once large frames stop coming).
 *
 * <p>Not thread-safe: only the thread that owns the link's reads ({@link ReadOwnership}) calls it.
 */
final class InboundFramer {
    static final int INITIAL_BYTES = 64 * 1024;
    /** The most one read takes from the socket. */
    static final int READ_BYTES = 1 << 20;
    /** Frames over this size make the buffer large, and keep it large while they keep coming. */
    private static final int LARGE_FRAME_BYTES = 1 << 20;
    /** How long a large buffer is kept after the last frame that needed it. */
    private static final long KEEP_LARGE_NANOS = 1_000_000_000L;

    private final IntFunction<ByteBuffer> allocator;
    private final Link link;
    private final LinkHandler handler;
    private final int maxFrameBytes;
    /** Checks the peer's tags ({@link FrameMac}); null when the runtimes agreed on bare frames. */
    private final FrameMac receiving;
    /** {@link FrameMac#TAG_BYTES} after each frame, or none. */
    private final int tagBytes;
    /** Bytes read and not yet handled: whole frames are handed over, a partial one waits for the rest. */
    private ByteBuffer inbound = ByteBuffer.allocate(INITIAL_BYTES);
    /** The length (with its prefix) of the frame whose start is in {@link #inbound}, 0 if none. */
    private int frameComing;
    /** When a frame over 1 MiB last came: a large {@link #inbound} is kept while they keep coming. */
    private long lastLargeFrame;
    /** The link closed, and {@link #inbound}'s room went back to the {@link ReceiveBudget}. */
    private boolean released;

    private final FrameMac.Tagger tagger;
    /**
     * How many bytes of the frame at the start of {@link #inbound} {@link #tagger} has taken already (its tag
     * started), 0 if none: a large frame is checked as it arrives, so that little is left to check at its end.
     */
    private int tagFed;

    /**
     * @param link what the handler is told the frames came on, and what closes when a frame fails its tag
     * @param maxFrameBytes the largest length field accepted (a message, its kind and its tag)
     */
    InboundFramer(final Link link, final LinkHandler handler, final int maxFrameBytes, final FrameMac receiving) {
        this(link, handler, maxFrameBytes, receiving, ByteBuffer::allocate);
    }

    /** With the buffers made by {@code allocator}: for tests of an allocation that fails. */
    InboundFramer(
            final Link link,
            final LinkHandler handler,
            final int maxFrameBytes,
            final FrameMac receiving,
            final IntFunction<ByteBuffer> allocator) {
        this.allocator = allocator;
        this.link = link;
        this.handler = handler;
        this.maxFrameBytes = maxFrameBytes;
        this.receiving = receiving;
        this.tagBytes = receiving == null ? 0 : FrameMac.TAG_BYTES;
        this.tagger = receiving == null ? null : receiving.tagger();
    }

    /**
     * Whether the calling thread runs a frame's handler, of this transport or another: a sender inside one must not
     * wait for room, as its thread holds a link's reads, which may be what frees it ({@link Delivery}).
     */
    static boolean inHandler() {
        return Delivery.inHandler();
    }

    /**
     * Reads what {@code socket} has into the buffer, grown first if it is full; the bytes read, -1 at the end. When
     * the socket is drained, checks what came of a large frame while more comes; the caller hands over the frames
     * read ({@link #handleFrames}).
     */
    int read(final ReadableByteChannel socket) throws IOException {
        if (!inbound.hasRemaining()) {
            grow(nextCapacity());
        }
        // At most READ_BYTES a read: the JDK reads a heap buffer through a direct one as large as the room left,
        // which it keeps for the thread, and any spinning thread may read a link.
        final int limit = inbound.limit();
        inbound.limit(inbound.position() + Math.min(inbound.remaining(), READ_BYTES));
        final int n;
        try {
            n = socket.read(inbound);
        } finally {
            inbound.limit(limit);
        }
        if (n == 0 && receiving != null && inbound.position() - tagFed >= FrameMac.BLOCK_BYTES) {
            tagSoFar(); // the socket is drained: check what came of a large frame while more comes
        }
        return n;
    }

    /** Takes the bytes {@code bytes} holds (what followed the handshake in its last read), without releasing it. */
    void append(final ByteBuf bytes) {
        final int n = bytes.readableBytes();
        if (inbound.remaining() < n) {
            grow(inbound.position() + n);
        }
        // readBytes(ByteBuffer) fills the buffer up to its limit: give it exactly the bytes there are
        final int limit = inbound.limit();
        bytes.readBytes(inbound.limit(inbound.position() + n));
        inbound.limit(limit);
    }

    /**
     * Hands over every whole frame in {@link #inbound}; keeps a partial one, with room for the rest of it. Once the
     * link is closed (by a handler, say), drops what is left: nothing more of the link reaches its handler.
     */
    void handleFrames() {
        inbound.flip();
        final byte[] bytes = inbound.array();
        final int[] handlers = Delivery.handlers();
        while (inbound.remaining() >= LENGTH_BYTES) {
            if (!link.isOpen()) { // its handler closed it (a peer breaking the protocol): it hears nothing more
                inbound.clear();
                frameComing = 0;
                tagFed = 0;
                return;
            }
            final int start = inbound.position();
            final int length = inbound.getInt(start);
            if (length < lengthField(0, tagBytes) || length > maxFrameBytes) {
                throw new IllegalStateException("frame of " + length + " bytes announced; at most " + maxFrameBytes
                        + " are accepted (troupe.serialization.maxMessageBytes)");
            }
            if (inbound.remaining() < framedLength(length)) {
                break;
            }
            if (receiving != null) {
                checkTag(bytes, start, framedLength(length) - tagBytes);
            }
            inbound.position(start + framedLength(length));
            if (bytes[start + KIND_OFFSET] == MESSAGE) { // else a heartbeat: its arrival is all that matters
                handlers[0]++;
                try {
                    handler.received(link, bytes, start + PAYLOAD_OFFSET, payloadLength(length, tagBytes));
                } catch (RuntimeException | Error e) { // the frames after it stay whole, for whoever reads next
                    inbound.compact();
                    throw e;
                } finally {
                    handlers[0]--;
                }
            }
        }
        final int partial = inbound.remaining() >= LENGTH_BYTES ? framedLength(inbound.getInt(inbound.position())) : 0;
        if (partial > LARGE_FRAME_BYTES) {
            lastLargeFrame = System.nanoTime();
        }
        if (inbound.position() == 0) { // a frame still coming, from the start: no byte need move
            inbound.position(inbound.limit()).limit(inbound.capacity());
        } else {
            inbound.compact();
        }
        frameComing = partial;
        if (partial > inbound.capacity() && !inbound.hasRemaining()) {
            grow(nextCapacity());
        } else if (inbound.position() == 0
                && inbound.capacity() > LARGE_FRAME_BYTES
                && System.nanoTime() - lastLargeFrame > KEEP_LARGE_NANOS) {
            shrink(); // do not keep a large buffer for small traffic
        }
    }

    /**
     * Checks the tag that follows a frame's {@code tagged} bytes. A frame that fails was not sent by the peer on
     * this link, or not in this place (injected, replayed, reordered, or altered on the way): nothing more is read
     * from the link, which closes.
     */
    private void checkTag(final byte[] bytes, final int start, final int tagged) {
        if (tagFed == 0) {
            receiving.start(tagger, tagged);
        }
        tagger.update(bytes, start + tagFed, tagged - tagFed);
        tagFed = 0;
        if (!tagger.matches(bytes, start + tagged)) {
            inbound.clear();
            frameComing = 0;
            link.close("a frame failed its authentication (altered, injected, replayed or reordered on the way)");
            throw new IllegalStateException("frame " + (receiving.sequence() - 1) + " from " + link.peerRuntimeId()
                    + " failed its authentication; the link is closed");
        }
    }

    /**
     * Feeds the tag of the frame still coming (at the start of {@link #inbound}, which {@link #handleFrames} left
     * ready for more bytes) with the whole blocks of it that are here, hashed where they lie: so a large frame is
     * checked while the rest of it travels, and only its last block is left for its end.
     */
    private void tagSoFar() {
        if (frameComing == 0) {
            return;
        }
        final int available = Math.min(inbound.position(), frameComing - tagBytes);
        final int upTo = tagFed + (available - tagFed) / FrameMac.BLOCK_BYTES * FrameMac.BLOCK_BYTES;
        if (upTo <= tagFed) {
            return;
        }
        if (tagFed == 0) {
            receiving.start(tagger, frameComing - tagBytes);
        }
        tagger.update(inbound.array(), tagFed, upTo - tagFed);
        tagFed = upTo;
    }

    /**
     * Twice the buffer, but no more than the frame coming needs: a frame is given room as its bytes arrive, not
     * when its length does, so a peer announcing 256 MiB and sending ten bytes costs little.
     */
    private int nextCapacity() {
        final long doubled = 2L * inbound.capacity();
        return (int)
                (frameComing > inbound.capacity()
                        ? Math.min(doubled, frameComing)
                        : Math.min(doubled, Integer.MAX_VALUE - 8));
    }

    /** The room held for bytes read and not yet handled. */
    int capacity() {
        return inbound.capacity();
    }

    /**
     * Gives the buffer {@code capacity} bytes, the bytes it holds kept, taking what it grows by from this JVM's
     * {@link ReceiveBudget}: past it, the link is closed (by its reader, as for a frame over the size allowed).
     */
    private synchronized void grow(final int capacity) {
        if (released) {
            throw new IllegalStateException("the link is closed");
        }
        final int bigger = Math.max(capacity, INITIAL_BYTES);
        final long more = (long) bigger - inbound.capacity();
        if (!ReceiveBudget.take(more)) {
            throw new IllegalStateException(ReceiveBudget.refusal(link.toString(), more));
        }
        final ByteBuffer larger;
        try {
            larger = allocator.apply(bigger);
        } catch (OutOfMemoryError e) { // what was taken for it is not held
            ReceiveBudget.give(more);
            throw e;
        }
        inbound = larger.put(inbound.flip());
    }

    private synchronized void shrink() {
        if (!released) {
            ReceiveBudget.give(inbound.capacity() - INITIAL_BYTES);
        }
        inbound = allocator.apply(INITIAL_BYTES);
    }

    /** The link closed: the room its buffer held beyond the first goes back to the budget, once. */
    synchronized void release() {
        if (!released) {
            released = true;
            ReceiveBudget.give(inbound.capacity() - INITIAL_BYTES);
        }
    }
}
