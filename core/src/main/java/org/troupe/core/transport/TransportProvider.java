package org.troupe.core.transport;

/**
 * Makes the transport that {@code troupe.core.transport} names. Found with {@link java.util.ServiceLoader}, so a
 * transport is added by putting its module on the path, and chosen by configuration, never by code.
 */
public interface TransportProvider {
    /** The value of {@code troupe.core.transport} that selects it ({@code tcp}). */
    String name();

    /** A transport for the runtime {@code runtimeId}, set up from {@code settings}; it listens only when asked. */
    Transport create(String runtimeId, TransportSettings settings);
}
