package org.troupe.core.transport;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The transports this JVM has ({@link TransportProvider}s on its class or module path), by name. */
public final class Transports {
    private static final Logger LOG = LoggerFactory.getLogger(Transports.class);
    /** The setting that means "no transport": the runtime reaches no other JVM and opens no socket. */
    public static final String NONE = "local";
    /** The setting that names the transport. */
    private static final String SETTING = "troupe.core.transport";

    private Transports() {}

    /** The names {@code troupe.core.transport} may take here, {@value #NONE} included. */
    public static List<String> names() {
        final List<String> names = new ArrayList<>();
        for (final TransportProvider p : providers()) {
            names.add(p.name());
        }
        names.add(NONE);
        return names;
    }

    /**
     * Fails, saying which names there are, unless {@code name} is a transport of this JVM or {@value #NONE}.
     *
     * @throws IllegalArgumentException naming the setting, the name and the names there are
     */
    public static void check(final String name) {
        final List<String> names = names();
        if (!names.contains(name)) {
            throw unknown(name, names);
        }
    }

    /**
     * The transport called {@code name} ({@code troupe.core.transport}), for the runtime {@code runtimeId}.
     *
     * @throws IllegalArgumentException as {@link #check} does, if no transport of this JVM has that name
     */
    public static Transport create(final String name, final String runtimeId, final TransportSettings settings) {
        for (final TransportProvider p : providers()) {
            if (p.name().equals(name)) {
                return p.create(runtimeId, settings);
            }
        }
        throw unknown(name, names());
    }

    private static IllegalArgumentException unknown(final String name, final List<String> names) {
        return new IllegalArgumentException(SETTING + "=" + name + " names no transport of this JVM; it has " + names);
    }

    /** The providers that load: one on the path that cannot must not keep the others, or the runtime, from use. */
    private static List<TransportProvider> providers() {
        final List<TransportProvider> found = new ArrayList<>();
        final Iterator<TransportProvider> it =
                ServiceLoader.load(TransportProvider.class).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    return found;
                }
                found.add(it.next());
            } catch (ServiceConfigurationError e) {
                LOG.warn("A transport on the class path cannot be loaded, and is left out: {}", e.getMessage());
            }
        }
    }
}
