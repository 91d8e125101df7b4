package org.troupe.core.transport;

import java.time.Duration;

/**
 * How runtimes in different JVMs reach each other: framed, authenticated links. Chosen by configuration
 * ({@code troupe.core.transport}); the rest of the runtime sees only this interface.
 */
public interface Transport extends AutoCloseable {
    /** Starts accepting links; returns the address peers dial ({@code host:port}). Idempotent. */
    String listen(LinkHandler handler);

    /**
     * As {@link #listen(LinkHandler)}, on the interface {@code bindHost} (an address of this host, a wildcard for
     * all) instead of the configured one, if it does not listen yet. A transport without interfaces to choose
     * listens as configured.
     */
    default String listen(final LinkHandler handler, final String bindHost) {
        return listen(handler);
    }

    /**
     * Opens a link to the runtime listening at {@code address}, proving the secret both ways. With
     * {@code expectedRuntimeId} not empty, only that runtime gets a link: the proof this side gives is bound to it,
     * so another runtime at the address (or one relaying to it) can neither accept it nor use it.
     */
    Link connect(String address, String expectedRuntimeId, LinkHandler handler, Duration timeout);

    /**
     * The last peer this transport refused for failing the handshake, with why and how long ago, or null if none:
     * so that a runtime waiting for a peer that never comes can say what it turned away (a node JVM with another
     * secret, say).
     */
    default String lastRefusal() {
        return null;
    }

    /** Closes every link and stops listening. */
    @Override
    void close();
}
