package org.troupe.core.transport.shm;

import org.troupe.core.transport.Transport;
import org.troupe.core.transport.TransportProvider;
import org.troupe.core.transport.TransportSettings;

/** {@code troupe.core.transport=shm}: shared memory only; a link to a runtime of another host is refused. */
public final class ShmTransportProvider implements TransportProvider {
    @Override
    public String name() {
        return "shm";
    }

    @Override
    public Transport create(final String runtimeId, final TransportSettings settings) {
        return new ShmTransport(runtimeId, settings, ShmTransport.Mode.SHM);
    }
}
