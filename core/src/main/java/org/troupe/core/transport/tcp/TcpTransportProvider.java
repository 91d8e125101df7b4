package org.troupe.core.transport.tcp;

import java.nio.charset.StandardCharsets;
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
        return new TcpTransport(
                runtimeId,
                settings.secret().getBytes(StandardCharsets.UTF_8),
                new TcpSettings(
                        settings.bindHost(),
                        settings.advertiseHost(),
                        settings.port(),
                        settings.heartbeat(),
                        settings.peerTimeout(),
                        settings.maxMessageBytes(),
                        settings.authenticateFrames()));
    }
}
