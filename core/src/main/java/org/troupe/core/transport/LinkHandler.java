package org.troupe.core.transport;

import java.nio.ByteBuffer;

/** What a transport tells the runtime about its links. Called on transport threads: return quickly. */
public interface LinkHandler {
    /** A peer connected to us and proved the secret (links we open are returned by {@link Transport#connect}). */
    void opened(Link link);

    /**
     * A frame arrived; {@code frame[offset, offset + length)} is valid only during the call, which may run on any
     * thread that reads the link (an event loop, or a thread polling while it waits), one at a time per link.
     */
    void received(Link link, byte[] frame, int offset, int length);

    /**
     * A frame that the transport lends in place, between its position and limit (a large one in a ring of shared
     * memory), valid only during the call, and as {@link #received(Link, byte[], int, int)} otherwise. A handler that
     * copies what it keeps straight from there saves a copy of the whole frame; by default the frame is copied into an
     * array for the other method.
     */
    default void received(final Link link, final ByteBuffer frame) {
        final byte[] copy = new byte[frame.remaining()];
        frame.get(copy);
        received(link, copy, 0, copy.length);
    }

    /** The link is gone: closed by either side, broken, or silent for longer than the peer timeout. */
    void closed(Link link, String reason);
}
