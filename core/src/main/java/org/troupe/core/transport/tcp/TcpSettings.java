package org.troupe.core.transport.tcp;

import java.time.Duration;

/**
 * How a {@link TcpTransport} listens and watches its peers; {@link TcpTransportProvider} makes it from the
 * runtime's {@link org.troupe.core.transport.TransportSettings}.
 *
 * @param bindHost the interface to listen on (an address or host name; a wildcard for all)
 * @param advertiseHost the host peers are told to dial, or empty to choose it ({@link
 *     org.troupe.core.transport.AnnouncedAddress})
 * @param port 0 for any free port
 * @param heartbeat how long a link may stay silent before we send a heartbeat
 * @param peerTimeout how long a peer may stay silent before its link is closed
 * @param maxMessageBytes the largest message accepted from a peer
 * @param authenticateFrames whether every frame after the handshake carries a tag (both ends must agree)
 * @param offerSharedMemory whether the handshake offers the peer to carry the link's frames through shared memory
 *     (a transport built on this one takes the offer up: {@link TcpTransport#sharesMemory})
 */
public record TcpSettings(
        String bindHost,
        String advertiseHost,
        int port,
        Duration heartbeat,
        Duration peerTimeout,
        int maxMessageBytes,
        boolean authenticateFrames,
        boolean offerSharedMemory) {
    /** Offering no shared memory: plain TCP. */
    public TcpSettings(
            final String bindHost,
            final String advertiseHost,
            final int port,
            final Duration heartbeat,
            final Duration peerTimeout,
            final int maxMessageBytes,
            final boolean authenticateFrames) {
        this(bindHost, advertiseHost, port, heartbeat, peerTimeout, maxMessageBytes, authenticateFrames, false);
    }

    /** Announcing the address chosen for each peer. */
    public TcpSettings(
            final String bindHost,
            final int port,
            final Duration heartbeat,
            final Duration peerTimeout,
            final int maxMessageBytes,
            final boolean authenticateFrames) {
        this(bindHost, "", port, heartbeat, peerTimeout, maxMessageBytes, authenticateFrames);
    }

    /** With frames authenticated, the default. */
    public TcpSettings(
            final String bindHost,
            final int port,
            final Duration heartbeat,
            final Duration peerTimeout,
            final int maxMessageBytes) {
        this(bindHost, port, heartbeat, peerTimeout, maxMessageBytes, true);
    }
}
