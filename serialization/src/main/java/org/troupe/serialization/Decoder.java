package org.troupe.serialization;

import java.util.List;
import org.troupe.serialization.internal.AllowList;
import org.troupe.serialization.internal.ArraySliceSerializer;
import org.troupe.serialization.internal.SessionKryo;

/**
 * Reads the messages one side of a connection receives, in the order the peer's {@link Encoder} wrote them.
 *
 * <p>Input is untrusted. Only allowed classes are loaded or instantiated, every length is checked against the bytes
 * that remain before anything is allocated, nesting is bounded, and truncated or corrupt bytes end in a
 * {@link SerializationException} &mdash; never a crash, a hang or an unbounded allocation. After a failure the
 * decoder is ready for the next message: a message defines its new classes in a header before its body, so the
 * class table stays in step with the peer's even when a body cannot be read.
 *
 * <p>Not thread-safe: one receiving thread at a time.
 */
public final class Decoder {
    private final SessionKryo session;
    private final int maxMessageBytes;

    Decoder(final SerializationConfig config, final AllowList allowList, final List<WireForm<?, ?>> forms) {
        this.session = SessionKryo.forReading(config, allowList, forms);
        this.maxMessageBytes = config.maxMessageBytes();
    }

    /**
     * Reads one message from {@code in}, leaving {@code in} just after it. A message may not extend more than
     * {@link SerializationConfig#maxMessageBytes()} past where it starts.
     */
    public Object decode(final TroupeInput in) {
        final int start = in.position();
        final int limit = in.limit();
        try {
            begin(in);
            final int root = in.position();
            try {
                return session.readRoot(in);
            } catch (StackOverflowError e) {
                // This thread's stack holds fewer levels than maxDepth allows: read again where it holds them all
                session.restartRoot();
                in.setPosition(root);
                in.startMessage();
                return session.onDeepStack(() -> session.readRoot(in));
            }
        } catch (Throwable e) {
            throw session.failMessage(e, "read", "the message at offset " + start);
        } finally {
            in.setLimit(limit);
        }
    }

    /** Reads one message that must be a {@code T} (or null). */
    public <T> T decode(final TroupeInput in, final Class<T> expected) {
        final Object message = decode(in);
        if (message != null && !expected.isInstance(message)) {
            throw new SerializationException("Expected a message of type " + expected.getName() + " but received a "
                    + message.getClass().getName());
        }
        return expected.cast(message);
    }

    /** Reads a message that fills {@code message} exactly and must be a {@code T} (or null). */
    public <T> T decode(final byte[] message, final Class<T> expected) {
        final TroupeInput in = new TroupeInput(message, 0, message.length);
        final T value = decode(in, expected);
        if (in.remaining() != 0) {
            throw new SerializationException("Corrupt message: " + in.remaining() + " bytes left after the object");
        }
        return value;
    }

    /**
     * Reads a message that is a primitive array or an {@link ArraySlice} of {@code target}'s element type straight
     * into {@code target}'s array, without allocating an array.
     *
     * @return the number of elements received, at most {@code target.length()}
     * @throws SerializationException if the message holds another type or more elements than {@code target} has
     */
    public <A> int decodeInto(final TroupeInput in, final ArraySlice<A> target) {
        final int start = in.position();
        final int limit = in.limit();
        try {
            begin(in);
            return ArraySliceSerializer.readInto(in, session.readRootClass(in), target);
        } catch (Throwable e) {
            throw session.failMessage(e, "read", "the array message at offset " + start);
        } finally {
            in.setLimit(limit);
        }
    }

    /** Bounds the message to the maximum size, then reads its header. */
    private void begin(final TroupeInput in) {
        if (in.remaining() > maxMessageBytes) {
            in.setLimit(in.position() + maxMessageBytes);
        }
        in.startMessage();
        session.readHeader(in);
    }
}
