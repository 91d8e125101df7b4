package org.troupe.core.exceptions;

import java.io.Serial;

/**
 * The runtime at the other end of a call is gone or unreachable: its JVM died, the network failed, or it stayed
 * silent longer than {@code troupe.core.peerTimeoutMillis}. Thrown where a future awaiting it is touched, and by
 * calls sent to it.
 */
public class PeerFailedException extends TroupeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String peer;

    public PeerFailedException(final String peer, final String reason) {
        super("Peer " + peer + " failed: " + reason);
        this.peer = peer;
    }

    /** With the {@code cause}: why the peer could not be reached, say. */
    public PeerFailedException(final String peer, final String reason, final Throwable cause) {
        super("Peer " + peer + " failed: " + reason, cause);
        this.peer = peer;
    }

    /** The failed runtime: its id and address. */
    public String peer() {
        return peer;
    }
}
