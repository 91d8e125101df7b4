package org.troupe.core.spi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * This host's addresses as the runtime sees them, for a layer that tells other hosts where to reach it (the
 * deployment, which picks the address its node JVMs dial) and for the IP transports: {@code host:port} written and
 * read, what is loopback or wildcard, which address of this host routes to another, and the one it announces where
 * no connection tells.
 */
public final class HostAddresses {
    private HostAddresses() {}

    /** {@code host:port}; an IPv6 literal in brackets, so that the port stays apart from it. */
    public static String hostPort(final String host, final int port) {
        return (host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
    }

    /** {@code address:port}, the address as a literal (without the scope of an IPv6 address). */
    public static String hostPort(final InetAddress address, final int port) {
        final String literal = address.getHostAddress();
        final int scope = literal.indexOf('%');
        return hostPort(scope < 0 ? literal : literal.substring(0, scope), port);
    }

    /** The host of {@code host:port} (an IPv6 literal without its brackets); fails on anything else. */
    public static String host(final String address) {
        final String host = address.substring(0, colon(address));
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** The port of {@code host:port}; fails on anything else. */
    public static int port(final String address) {
        final String port = address.substring(colon(address) + 1);
        if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65_535) {
            throw notAnAddress(address);
        }
        return Integer.parseInt(port);
    }

    private static int colon(final String address) {
        final int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw notAnAddress(address);
        }
        return colon;
    }

    private static IllegalArgumentException notAnAddress(final String address) {
        return new IllegalArgumentException("'" + address + "' is not a host:port address");
    }

    /** The address of {@code host} (a literal is parsed, a name looked up); fails with the host named. */
    public static InetAddress resolve(final String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("Unknown host " + host + ": " + e.getMessage(), e);
        }
    }

    /** Whether {@code host} is a wildcard address (0.0.0.0, ::): every interface, not one to reach. Not looked up. */
    public static boolean isWildcard(final String host) {
        return isLiteral(host) && resolve(host).isAnyLocalAddress();
    }

    /** Whether {@code host} names this host's loopback interface (127.x.y.z, ::1, localhost). Not looked up. */
    public static boolean isLoopback(final String host) {
        return host.equalsIgnoreCase("localhost")
                || isLiteral(host) && resolve(host).isLoopbackAddress();
    }

    /** Whether {@code host} is an IP literal, whose address needs no name service. */
    private static boolean isLiteral(final String host) {
        return host.indexOf(':') >= 0 || host.matches("[0-9.]+");
    }

    /**
     * This host's address for peers, where no connection tells which one a peer reaches: the first address of the
     * first interface that is up and not loopback (IPv4 before IPv6, no link-local address), in the order the
     * system numbers its interfaces; the loopback address if there is none (no other host reaches this one then).
     */
    public static InetAddress hostAddress() {
        final List<InetAddress> all = addresses();
        return all.isEmpty() ? InetAddress.getLoopbackAddress() : all.getFirst();
    }

    /**
     * The addresses of this host that another host may reach, {@link #hostAddress()} first: those of its interfaces
     * that are up and not loopback, in the order the system numbers them, IPv4 before IPv6, no link-local address;
     * none if no interface can be listed.
     */
    public static List<InetAddress> addresses() {
        final List<InetAddress> found = new ArrayList<>();
        try {
            final List<NetworkInterface> all = NetworkInterface.networkInterfaces()
                    .filter(HostAddresses::isUpAndNotLoopback)
                    .sorted(Comparator.comparingInt(NetworkInterface::getIndex))
                    .toList();
            for (final Class<?> family : List.of(Inet4Address.class, Inet6Address.class)) {
                for (final NetworkInterface i : all) {
                    for (final InetAddress a : Collections.list(i.getInetAddresses())) {
                        if (family.isInstance(a)
                                && !a.isLinkLocalAddress()
                                && !a.isLoopbackAddress()
                                && !a.isAnyLocalAddress()
                                && !found.contains(a)) {
                            found.add(a);
                        }
                    }
                }
            }
        } catch (SocketException e) {
            // no interface can be listed: only the loopback is sure to be there
        }
        return found;
    }

    private static boolean isUpAndNotLoopback(final NetworkInterface i) {
        try {
            return i.isUp() && !i.isLoopback();
        } catch (SocketException e) {
            return false;
        }
    }

    /**
     * The address of this host that the kernel would send from to reach {@code remote}: the local end a
     * connection to it would get. Nothing is sent (a datagram socket is only connected). Fails, saying so, when
     * this host has no route to {@code remote}.
     */
    public static InetAddress routeTo(final InetAddress remote) {
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(new InetSocketAddress(remote, 9));
            final InetAddress local = probe.getLocalAddress();
            if (local == null || local.isAnyLocalAddress()) {
                throw new UncheckedIOException(
                        new SocketException("no local address routes to " + remote.getHostAddress()));
            }
            return local;
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
        }
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
