package org.troupe.serialization;

import java.util.List;
import org.troupe.serialization.internal.AllowList;
import org.troupe.serialization.internal.GraphPaths;
import org.troupe.serialization.internal.SessionKryo;

/**
 * Writes the messages one side of a connection sends. One message is a flags byte, the definitions of the classes
 * it is the first to use (a class's name crosses once per connection), then the root object, written with the
 * class ids this connection has agreed.
 *
 * <p>Not thread-safe: one sending thread at a time. A failed {@code encode} leaves the output where it was and the
 * class table as it was, so the next message can be sent as if nothing happened.
 */
public final class Encoder {
    private final SerializationConfig config;
    private final AllowList allowList;
    private final SessionKryo session;

    Encoder(final SerializationConfig config, final AllowList allowList, final List<WireForm<?, ?>> forms) {
        this.config = config;
        this.allowList = allowList;
        this.session = SessionKryo.forWriting(config, allowList, forms);
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
     * @throws NotSendableException if the graph holds an object that can never be sent (a lambda, a thread...),
     *     saying where it was found
     */
    public void encode(final Object message, final TroupeOutput out, final boolean trackReferences) {
        final int start = out.position();
        try {
            try {
                session.write(out, message, trackReferences);
            } catch (StackOverflowError e) {
                // This thread's stack holds fewer levels than maxDepth allows: write again where it holds them all
                session.recover();
                out.setPosition(start);
                session.onDeepStack(() -> {
                    session.write(out, message, trackReferences);
                    return null;
                });
            }
        } catch (Throwable e) {
            out.setPosition(start);
            final SerializationException failure = session.failMessage(
                    e,
                    "write",
                    "a " + (message == null ? "null" : message.getClass().getName()));
            throw failure instanceof NotSendableException never && never.path() == null
                    ? never.at(GraphPaths.find(message, never.className(), allowList))
                    : failure;
        }
    }

    /**
     * Says that the message last encoded was not sent after all (the transport refused it, too large, say): the
     * classes it was the first to use are taken back, so the next message defines them again and the peer, which
     * never saw the definitions, can read it.
     */
    public void abandonLast() {
        session.abandonLast();
    }

    /** Encodes {@code message} into a new array of exactly its length. */
    public byte[] encodeToBytes(final Object message) {
        final TroupeOutput out = newOutput();
        encode(message, out);
        return out.toBytes();
    }
}
