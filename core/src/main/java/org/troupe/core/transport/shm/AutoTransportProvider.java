package org.troupe.core.transport.shm;

import org.troupe.core.transport.Transport;
import org.troupe.core.transport.TransportProvider;
import org.troupe.core.transport.TransportSettings;

/** {@code troupe.core.transport=auto}, the default: shared memory to runtimes of this host and user, TCP to others. */
public final class AutoTransportProvider implements TransportProvider {
    @Override
    public String name() {
        return "auto";
    }

    @Override
    public Transport create(final String runtimeId, final TransportSettings settings) {
        return new ShmTransport(runtimeId, settings, ShmTransport.Mode.AUTO);
    }
}
