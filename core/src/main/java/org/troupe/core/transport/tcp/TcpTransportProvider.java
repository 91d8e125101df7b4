package org.troupe.core.transport.tcp;

import org.troupe.core.transport.Transport;
import org.troupe.core.transport.TransportProvider;
import org.troupe.core.transport.TransportSettings;

/** {@code troupe.core.transport=tcp}: {@link TcpTransport}, set up from the runtime's {@link TransportSettings}. */
public final class TcpTransportProvider implements TransportProvider {
    @Override
    public String name() {
        return "tcp";
    }

    @Override
    public Transport create(final String runtimeId, final TransportSettings settings) {
        return TcpTransport.of(runtimeId, settings, false);
    }
}
