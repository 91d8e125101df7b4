package org.troupe.core.transport.tcp;

/**
 * The layout of a frame on a TCP link, for the handshake's frames and the link's alike:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                  length:int (big-endian)                      |
 *  +---------------+-----------------------------------------------+
 *  |   kind:byte   |  payload ...                                  |
 *  +---------------+                                               |
 *  |  ...                                                          |
 *  +---------------------------------------------------------------+
 *  |  tag: FrameMac.TAG_BYTES (of an HMAC-SHA-256), or none        |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>{@code length} counts what follows it: the kind, the payload and the tag. A link's frames carry a tag when the
 * runtimes agreed on it in the handshake (it covers the length, the kind and the payload); the handshake's frames
 * never do, and their kind is one of {@link Handshake}'s.
 */
final class FrameDescriptor {
    /** Where the length of what follows it starts. */
    static final int LENGTH_OFFSET = 0;
    /** The bytes of the length field. */
    static final int LENGTH_BYTES = Integer.BYTES;
    /** Where the frame's kind is. */
    static final int KIND_OFFSET = LENGTH_OFFSET + LENGTH_BYTES;
    /** Where the payload starts. */
    static final int PAYLOAD_OFFSET = KIND_OFFSET + Byte.BYTES;
    /** The bytes before the payload: the length and the kind. */
    static final int HEADER_LENGTH = PAYLOAD_OFFSET;

    /** A link frame's kind: a message for the link's handler. */
    static final byte MESSAGE = 0;
    /** A link frame's kind: a heartbeat, whose arrival is all that matters. */
    static final byte PING = 1;

    private FrameDescriptor() {}

    /** The bytes of a whole frame, its header and tag included, whose payload has {@code payloadLength}. */
    static int frameLength(final int payloadLength, final int tagBytes) {
        return HEADER_LENGTH + payloadLength + tagBytes;
    }

    /** The value of the length field of a frame whose payload has {@code payloadLength}. */
    static int lengthField(final int payloadLength, final int tagBytes) {
        return Byte.BYTES + payloadLength + tagBytes;
    }

    /** The bytes of a frame whose length field says {@code lengthField}, the field included. */
    static int framedLength(final int lengthField) {
        return LENGTH_BYTES + lengthField;
    }

    /** The bytes of the payload of a frame whose length field says {@code lengthField}. */
    static int payloadLength(final int lengthField, final int tagBytes) {
        return lengthField - Byte.BYTES - tagBytes;
    }
}
