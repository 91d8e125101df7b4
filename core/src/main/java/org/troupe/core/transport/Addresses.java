package org.troupe.core.transport;

import java.net.InetAddress;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.troupe.core.spi.HostAddresses;

/**
 * Addresses of the IP transports: {@code host:port} written and read, what is loopback or wildcard, which address
 * of this host routes to another ({@link HostAddresses}, which they share with the layers that place node JVMs);
 * which failures are the network's. What a runtime announces is decided by {@link AnnouncedAddress}.
 */
public final class Addresses {
    private Addresses() {}

    /** {@code host:port}; an IPv6 literal in brackets, so that the port stays apart from it. */
    public static String hostPort(final String host, final int port) {
        return HostAddresses.hostPort(host, port);
    }

    /** {@code address:port}, the address as a literal (without the scope of an IPv6 address). */
    public static String hostPort(final InetAddress address, final int port) {
        return HostAddresses.hostPort(address, port);
    }

    /** The host of {@code host:port} (an IPv6 literal without its brackets); fails on anything else. */
    public static String host(final String address) {
        return HostAddresses.host(address);
    }

    /** The port of {@code host:port}; fails on anything else. */
    public static int port(final String address) {
        return HostAddresses.port(address);
    }

    /** The address of {@code host} (a literal is parsed, a name looked up); fails with the host named. */
    public static InetAddress resolve(final String host) {
        return HostAddresses.resolve(host);
    }

    /** Whether {@code host} is a wildcard address (0.0.0.0, ::): every interface, not one to reach. Not looked up. */
    public static boolean isWildcard(final String host) {
        return HostAddresses.isWildcard(host);
    }

    /** Whether {@code host} names this host's loopback interface (127.x.y.z, ::1, localhost). Not looked up. */
    public static boolean isLoopback(final String host) {
        return HostAddresses.isLoopback(host);
    }

    /** This host's address for peers where no connection tells which one a peer reaches. */
    public static InetAddress hostAddress() {
        return HostAddresses.hostAddress();
    }

    /** The addresses of this host that another host may reach, {@link #hostAddress()} first. */
    public static List<InetAddress> addresses() {
        return HostAddresses.addresses();
    }

    /**
     * Whether {@code cause} (of a failed connection) says the network did not reach the address: refused,
     * unreachable, timed out; not a peer that answered and failed the handshake.
     */
    public static boolean isNetworkFailure(final Throwable cause) {
        return cause instanceof SocketException || cause instanceof TimeoutException;
    }

    /**
     * The address of this host that the kernel would send from to reach {@code remote}; fails, saying so, when this
     * host has no route to it.
     */
    public static InetAddress routeTo(final InetAddress remote) {
        return HostAddresses.routeTo(remote);
    }
}
