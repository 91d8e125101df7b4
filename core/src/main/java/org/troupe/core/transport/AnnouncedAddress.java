package org.troupe.core.transport;

import java.net.InetAddress;

/**
 * What a listening runtime announces to its peers ({@code host:port}), decided once when it starts listening:
 * {@code troupe.core.advertiseAddress} if set; else the address it is bound to, unless that is a wildcard; else,
 * for each peer, the local address of their connection ({@link #to}), and where no connection tells,
 * {@link #byDefault()}: the host's own address ({@link Addresses#hostAddress()}).
 *
 * @param fixedHost the host announced to every peer, or null when each peer gets its connection's local address
 * @param port the port the runtime listens on
 * @param fallback the host announced where no connection tells which one a peer reaches
 */
public record AnnouncedAddress(String fixedHost, int port, InetAddress fallback) {
    /**
     * The announcement of a runtime whose settings say {@code advertiseHost} (empty: automatic) and
     * {@code bindHost}, and which its socket bound to {@code bound}, port {@code port}.
     */
    public static AnnouncedAddress of(
            final String advertiseHost, final String bindHost, final InetAddress bound, final int port) {
        if (!advertiseHost.isEmpty()) {
            return new AnnouncedAddress(advertiseHost, port, null);
        }
        if (!bound.isAnyLocalAddress()) {
            return new AnnouncedAddress(bindHost, port, null); // as the user wrote it: a host name stays one
        }
        return new AnnouncedAddress(null, port, Addresses.hostAddress());
    }

    /** What the peer of a connection whose local end is {@code local} (null if unknown) is told. */
    public String to(final InetAddress local) {
        if (fixedHost != null) {
            return Addresses.hostPort(fixedHost, port);
        }
        return Addresses.hostPort(local != null && !local.isAnyLocalAddress() ? local : fallback, port);
    }

    /** What is announced where no connection is involved: a URL, an endpoint's address, a log line. */
    public String byDefault() {
        return to(null);
    }

    /** Whether each peer is told the local address of its own connection. */
    public boolean perConnection() {
        return fixedHost == null;
    }
}
