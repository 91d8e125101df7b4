package org.troupe.core.transport;

import java.time.Duration;

/**
 * What a transport is set up from: the values of the runtime's settings ({@code troupe.core.*}) that a transport
 * needs, and nothing of the runtime itself; the runtime makes it where it creates its transport.
 *
 * @param bindHost the interface to listen on ({@code troupe.core.bindAddress}; a wildcard for all)
 * @param advertiseHost the host peers are told to dial ({@code troupe.core.advertiseAddress}), or empty to choose it
 *     ({@link AnnouncedAddress})
 * @param port the port to listen on, 0 for any free port ({@code troupe.core.port})
 * @param heartbeat how long a link may stay silent before a heartbeat is sent ({@code troupe.core.heartbeatMillis})
 * @param peerTimeout how long a peer may stay silent before its link is closed ({@code troupe.core.peerTimeoutMillis})
 * @param maxMessageBytes the largest message accepted from a peer ({@code troupe.serialization.maxMessageBytes})
 * @param secret the deployment secret both ends of a link prove they know; never printed
 * @param authenticateFrames whether every frame after the handshake carries a tag (both ends must agree)
 * @param shmDirectory where a shared-memory transport makes its ring files ({@code troupe.core.shmDirectory})
 * @param shmRingBytes the bytes of each direction's ring of a shared-memory link ({@code troupe.core.shmRingBytes})
 */
public record TransportSettings(
        String bindHost,
        String advertiseHost,
        int port,
        Duration heartbeat,
        Duration peerTimeout,
        int maxMessageBytes,
        String secret,
        boolean authenticateFrames,
        String shmDirectory,
        int shmRingBytes) {
    /** The settings without the secret, which must reach no log. */
    @Override
    public String toString() {
        return "TransportSettings[bindHost=" + bindHost + ", advertiseHost=" + advertiseHost + ", port=" + port
                + ", heartbeat=" + heartbeat + ", peerTimeout=" + peerTimeout + ", maxMessageBytes=" + maxMessageBytes
                + ", authenticateFrames=" + authenticateFrames + ", shmDirectory=" + shmDirectory + ", shmRingBytes="
                + shmRingBytes + "]";
    }
}
