package org.troupe.serialization;

/**
 * The form in which objects that cannot cross the wire as themselves cross it: a generated proxy, a handle to
 * something that lives in one JVM. On the way out each object of {@link #type()} (or a subtype) is replaced by a
 * {@link #wireType()} object; on the way in each {@code wireType()} object read is resolved into what the receiver
 * should see. Forms are given to a {@link CodecSession}, so they may be bound to the connection they serve.
 *
 * <p>The wire type is allowed implicitly on both sides and is serialized like any class (a record is typical). The
 * replaced type is never named on the wire, so it may be hidden or generated.
 *
 * @param <T> what the application holds
 * @param <W> what crosses the wire
 */
public interface WireForm<T, W> {
    /** The type whose instances, and whose subtypes' instances, are replaced. */
    Class<T> type();

    /** The class that crosses the wire instead; only ever used as this form. */
    Class<W> wireType();

    /** What to send for {@code value}; never null. Called on the encoding thread. */
    W replace(T value);

    /** What the receiver gets for {@code wire}. Called on the decoding thread. */
    Object resolve(W wire);
}
