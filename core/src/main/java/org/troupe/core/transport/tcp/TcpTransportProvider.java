package org.troupe.core.transport.tcp;

import java.nio.charset.StandardCharsets;
import org.troupe.core.CoreConfig;
import org.troupe.core.transport.Transport;
import org.troupe.core.transport.TransportProvider;

/** {@code troupe.core.transport=tcp}: {@link TcpTransport}, set up from the {@code troupe.core.*} settings. */
public final class TcpTransportProvider implements TransportProvider {
    @Override
    public String name() {
        return "tcp";
    }

    @Override
    public Transport create(final String runtimeId, final CoreConfig config) {
        return new TcpTransport(runtimeId, config.secret().getBytes(StandardCharsets.UTF_8), new TcpSettings(
            config.bindAddress(), config.advertiseAddress(), config.port(), config.heartbeat(), config.peerTimeout(),
            config.serialization().maxMessageBytes(), config.authenticateFrames()));
    }
}
