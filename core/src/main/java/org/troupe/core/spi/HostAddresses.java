package org.troupe.core.spi;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.List;
import org.troupe.core.transport.Addresses;

/**
 * This host's addresses as the runtime sees them, for a layer that tells other hosts where to reach it (the
 * deployment, which picks the address its node JVMs dial): {@code host:port} written and read, which address of
 * this host routes to another, and the one it announces where no connection tells.
 */
public final class HostAddresses {
    private HostAddresses() {
    }

    /** {@code address:port}; an IPv6 address in brackets. */
    public static String hostPort(final InetAddress address, final int port) {
        return Addresses.hostPort(address, port);
    }

    /** The host of {@code host:port} (an IPv6 literal without its brackets); fails on anything else. */
    public static String host(final String hostPort) {
        return Addresses.host(hostPort);
    }

    /** The port of {@code host:port}; fails on anything else. */
    public static int port(final String hostPort) {
        return Addresses.port(hostPort);
    }

    /** Whether {@code host} names the loopback interface (127.x.y.z, ::1, localhost). Not looked up. */
    public static boolean isLoopback(final String host) {
        return Addresses.isLoopback(host);
    }

    /** Whether {@code host} is a wildcard address (0.0.0.0, ::): every interface. Not looked up. */
    public static boolean isWildcard(final String host) {
        return Addresses.isWildcard(host);
    }

    /**
     * The address of this host that the kernel sends from to reach {@code remote} (nothing is sent).
     *
     * @throws UncheckedIOException saying why, when this host has no route to {@code remote}
     */
    public static InetAddress routeTo(final InetAddress remote) {
        return Addresses.routeTo(remote);
    }

    /**
     * What a runtime bound to a wildcard announces where no connection tells which address a peer reaches: the
     * first address of this host's first interface that is up and not loopback; loopback if there is none.
     */
    public static InetAddress hostAddress() {
        return Addresses.hostAddress();
    }

    /**
     * The addresses of this host that another host may reach, {@link #hostAddress()} first: those of its interfaces
     * that are up and not loopback, in the order the system numbers them, IPv4 before IPv6, no link-local address.
     */
    public static List<InetAddress> addresses() {
        return Addresses.addresses();
    }

    /** Whether {@code address} is this host's: loopback, a wildcard, or an address of one of its interfaces. */
    public static boolean isThisHost(final InetAddress address) {
        if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return false;
        }
    }
}
