package org.troupe.core.transport;

import java.time.Duration;

/**
 * How runtimes in different JVMs reach each other: framed, authenticated links. Chosen by configuration
 * ({@code troupe.core.transport}); the rest of the runtime sees only this interface.
 */
public interface Transport extends AutoCloseable {
    /** Starts accepting links; returns the address peers dial ({@code host:port}). Idempotent. */
    String listen(LinkHandler handler);

    /** Opens a link to the runtime listening at {@code address}, proving the secret both ways. */
    Link connect(String address, LinkHandler handler, Duration timeout);

    /** Closes every link and stops listening. */
    @Override
    void close();
}
