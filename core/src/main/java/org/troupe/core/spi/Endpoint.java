package org.troupe.core.spi;

import java.nio.ByteBuffer;

/**
 * A named receiver of raw frames in this runtime, and the way to send frames to others: a small header and a
 * payload, written without the object codec, over the same links, handshake, heartbeats and failure detection as
 * active objects. For layers that do their own matching (the MPI facade). Opened by {@link Endpoints#open}.
 */
public interface Endpoint extends AutoCloseable {
    /** The largest header a frame may carry. */
    int MAX_HEADER_BYTES = 0xFFFF;

    /** Where this endpoint receives. */
    EndpointAddress address();

    /**
     * Sends one frame to the endpoint {@code to}: the bytes between position and limit of {@code header} (at most
     * {@link #MAX_HEADER_BYTES}) and of {@code payload}; neither buffer is changed, and both may be reused when this
     * returns. To this runtime, the receiver's handler runs now, on this thread, on views of these buffers. To
     * another, frames leave at once unless {@code batch} lets them wait a little to leave with the next ones; a
     * frame to a runtime whose link was lost fails rather than go over a new link.
     *
     * @throws org.troupe.core.exceptions.PeerFailedException if the receiver's runtime cannot be reached, or was lost
     * @throws org.troupe.core.exceptions.TroupeException if {@code to} is an endpoint of this runtime that is not open
     */
    void send(EndpointAddress to, ByteBuffer header, ByteBuffer payload, boolean batch);

    /** Stops receiving: frames that arrive later are dropped. */
    @Override
    void close();
}
