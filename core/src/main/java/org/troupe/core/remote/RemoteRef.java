package org.troupe.core.remote;

/**
 * An active object or a future as it crosses the wire.
 *
 * @param kind {@link #STUB}, {@link #FUTURE} or {@link #PORTABLE} (a layer's proxy; {@code value} is its recipe)
 * @param runtimeId the runtime the object lives in, or that owns the future
 * @param address where that runtime listens
 * @param id the active object's id, or the future's id on the connection that carries it
 * @param typeName the class of the proxy to make
 * @param resolved for a future: whether it was resolved when sent ({@code value} or {@code failure} then holds it)
 * @param node for an active object: the name of its node, so that messages about it say where it is; else null
 */
public record RemoteRef(
        byte kind,
        String runtimeId,
        String address,
        long id,
        String typeName,
        boolean resolved,
        Object value,
        RemoteFailure failure,
        String node) {
    public static final byte STUB = 1;
    public static final byte FUTURE = 2;
    public static final byte PORTABLE = 3;
}
