package org.troupe.core.transport;

import java.nio.ByteBuffer;

/** An authenticated connection to one peer runtime, carrying framed messages both ways. Thread-safe. */
public interface Link {
    /** The id of the runtime at the other end, proven by the handshake. */
    String peerRuntimeId();

    /** Where the peer listens ({@code host:port}), as it announced in the handshake; empty if it does not. */
    String peerAddress();

    /**
     * Where the peer is told to reach this runtime ({@code host:port}): what this runtime announced in the handshake,
     * or announces now if it started listening since; empty while it does not listen. A runtime reached at
     * different addresses by different peers names itself with this in what it sends on the link.
     */
    String localAddress();

    /**
     * Sends one frame (copied before this returns); frames arrive in the order their sends returned.
     *
     * @param batch whether the frame may wait a little to leave together with the frames sent after it (one-way
     *     calls in a burst), rather than leave at once (a call whose caller waits for its reply)
     */
    void send(byte[] frame, int offset, int length, boolean batch);

    /**
     * As {@link #send(byte[], int, int, boolean)}, for the frame made of {@code head[0, headLength)} followed by the
     * bytes between {@code tail}'s position and limit, which are not first gathered into one array (a large
     * payload is copied once, into the link's own buffer, or written from it); {@code tail} is not changed.
     */
    void send(byte[] head, int headLength, ByteBuffer tail, boolean batch);

    boolean isOpen();

    /** Closes the link; the handler's {@link LinkHandler#closed} follows. */
    void close(String reason);
}
