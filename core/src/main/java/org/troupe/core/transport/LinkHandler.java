package org.troupe.core.transport;

/** What a transport tells the runtime about its links. Called on transport threads: return quickly. */
public interface LinkHandler {
    /** A peer connected to us and proved the secret (links we open are returned by {@link Transport#connect}). */
    void opened(Link link);

    /**
     * A frame arrived; {@code frame[offset, offset + length)} is valid only during the call, which may run on any
     * thread that reads the link (an event loop, or a thread polling while it waits), one at a time per link.
     */
    void received(Link link, byte[] frame, int offset, int length);

    /** The link is gone: closed by either side, broken, or silent for longer than the peer timeout. */
    void closed(Link link, String reason);
}
