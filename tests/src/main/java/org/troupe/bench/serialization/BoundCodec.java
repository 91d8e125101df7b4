package org.troupe.bench.serialization;

/**
 * An implementation set up for one value: the two measured operations and what the round-trip check needs.
 *
 * <p>{@link #read()} decodes a message encoded at set-up time, after a first message has already crossed: for
 * codecs with a per-connection class table that is the steady state, where class names are not written any more.
 * {@link #write()} is in that steady state too, because set-up has encoded twice before.
 */
public interface BoundCodec {
    /** Serializes the value into the reused buffer from its start; returns the bytes written. */
    int write() throws Exception;

    /** Deserializes the steady-state message into a new object graph. */
    Object read() throws Exception;

    /** Deserializes what the last {@link #write()} produced; only for checking, not measured. */
    Object readLastWrite() throws Exception;

    /** The size of the steady-state message in bytes (raw data size for the copy baseline). */
    int messageBytes();
}
