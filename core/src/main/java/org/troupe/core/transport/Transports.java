package org.troupe.core.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.troupe.core.CoreConfig;
import org.troupe.core.TroupeException;

/** The transports this JVM has ({@link TransportProvider}s on its class or module path), by name. */
public final class Transports {
    /** The setting that means "no transport": the runtime reaches no other JVM and opens no socket. */
    public static final String NONE = "local";

    private Transports() {
    }

    /** The names {@code troupe.core.transport} may take here, {@value #NONE} included. */
    public static List<String> names() {
        final List<String> names = new ArrayList<>();
        for (final TransportProvider p : ServiceLoader.load(TransportProvider.class)) {
            names.add(p.name());
        }
        names.add(NONE);
        return names;
    }

    /** The transport {@code config} names, for the runtime {@code runtimeId}. */
    public static Transport create(final String runtimeId, final CoreConfig config) {
        final String name = config.transport();
        for (final TransportProvider p : ServiceLoader.load(TransportProvider.class)) {
            if (p.name().equals(name)) {
                return p.create(runtimeId, config);
            }
        }
        throw new TroupeException(CoreConfig.TRANSPORT_PROP_NAME + "=" + name + " names no transport of this JVM;"
            + " it has " + names());
    }
}
