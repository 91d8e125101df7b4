package org.troupe.serialization;

import org.troupe.serialization.internal.AllowList;
import org.troupe.serialization.internal.SessionKryo;

/**
 * Writes the messages one side of a connection sends. One message is a flags byte followed by the root object,
 * written with the class ids this connection has agreed so far (a class's name crosses once, in the first message
 * that needs it).
 *
 * <p>Not thread-safe: one sending thread at a time. A failed {@code encode} leaves the output where it was and the
 * class table as it was, so the next message can be sent as if nothing happened.
 */
public final class Encoder {
    /** Flags byte: the message tracks shared and cyclic references. */
    static final int FLAG_REFERENCES = 1;

    private final SerializationConfig config;
    private final SessionKryo session;

    Encoder(final SerializationConfig config, final AllowList allowList) {
        this.config = config;
        this.session = new SessionKryo(config, allowList);
    }

    /** A new output sized for small messages that grows up to the configured maximum message size. */
    public TroupeOutput newOutput() {
        return new TroupeOutput(4096, config.maxMessageBytes());
    }

    /** Appends {@code message} to {@code out}, tracking references if the configuration says so. */
    public void encode(final Object message, final TroupeOutput out) {
        encode(message, out, config.references());
    }

    /**
     * Appends {@code message} to {@code out}.
     *
     * @param trackReferences whether objects reachable twice are written once and cycles are allowed; costs about
     *     one byte per object. Classes named in {@link SerializationConfig#referenceClasses()} are tracked anyway.
     * @throws SerializationException if the graph holds a class that is not allowed, is deeper than allowed, or is
     *     larger than the maximum message size
     */
    public void encode(final Object message, final TroupeOutput out, final boolean trackReferences) {
        final int start = out.position();
        session.beginMessage(trackReferences);
        try {
            out.writeByte(trackReferences ? FLAG_REFERENCES : 0);
            session.writeRoot(out, message);
        } catch (RuntimeException | StackOverflowError e) {
            out.setPosition(start);
            throw session.failMessage(e, "write", "a " + (message == null ? "null" : message.getClass().getName()));
        }
    }

    /** Encodes {@code message} into a new array of exactly its length. */
    public byte[] encodeToBytes(final Object message) {
        final TroupeOutput out = newOutput();
        encode(message, out);
        return out.toBytes();
    }
}
