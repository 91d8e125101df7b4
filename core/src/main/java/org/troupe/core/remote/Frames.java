package org.troupe.core.remote;

/**
 * The kinds of frame runtimes exchange. Each frame starts with its kind and an id (a call, a future or an object)
 * written raw, so that a body that cannot be read can still be answered.
 */
final class Frames {
    /** id = call id (0: one-way); then object id (8 bytes), method (4), then the arguments. */
    static final byte CALL = 1;
    /** id = call id; then ok (1), then the value or a {@link RemoteFailure}. */
    static final byte REPLY = 2;
    /** id = call id; then {class name, node name, arguments}. */
    static final byte CREATE = 3;
    /** id = call id; then the name. */
    static final byte LOOKUP = 4;
    /** id = future id on this connection; then ok (1), then the value or a {@link RemoteFailure}. */
    static final byte FUTURE_VALUE = 5;
    /** id unused; then the name of the node the sender offers. */
    static final byte REGISTER_NODE = 6;
    /** id = object id. */
    static final byte TERMINATE = 7;
    /**
     * One call with the same arguments for several objects: id = first call id (0: one-way; the i-th object's call
     * is first + i); then count (4), object ids (8 each), method (4), then the arguments, once.
     */
    static final byte CALL_MANY = 8;
    /**
     * A raw frame for an endpoint, no codec: id = the receiving endpoint's id; then the sending endpoint's id (8),
     * the header's length (2), the header, and the payload (the rest).
     */
    static final byte ENDPOINT = 9;
    /** id = call id; then the name of an endpoint, answered by its address. */
    static final byte LOOKUP_ENDPOINT = 10;
    /**
     * A one-way call the sender received from this runtime threw: id unused; then what was called and a
     * {@link RemoteFailure}.
     */
    static final byte ONE_WAY_FAILED = 11;
    /** Bytes before an endpoint frame's header: kind, receiver, sender, header length. */
    static final int ENDPOINT_PREFIX = 1 + 8 + 8 + 2;

    private Frames() {}
}
