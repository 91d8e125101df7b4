package org.troupe.core.spi;

import java.nio.ByteBuffer;

/**
 * What an {@link Endpoint} does with the frames it receives. It runs on the thread that reads the frame's link (an
 * event loop, or a thread that waits and so reads), or, for a frame from this runtime, on the sender's thread
 * inside its {@code send}: keep it short, never wait in it for another frame, and make it thread-safe, as frames
 * from different runtimes may be handled at once. Frames from one endpoint arrive in the order they were sent.
 */
public interface EndpointHandler {
    /**
     * A frame arrived. {@code header} and {@code payload} are read-only views valid only during the call: copy what
     * is kept (one copy into the receiver's own buffer).
     */
    void received(EndpointAddress from, ByteBuffer header, ByteBuffer payload);

    /**
     * The runtime {@code runtimeId} is lost (its link ended): nothing more will come from it, and sends to it fail.
     * Called once per lost runtime, for every open endpoint.
     */
    default void runtimeLost(final String runtimeId, final String reason) {}
}
