package org.troupe.core.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class AddressesTest {
    private static InetAddress ip(final String literal) {
        return Addresses.resolve(literal);
    }

    @Test
    void shouldWriteAndReadHostAndPortWithIpv6LiteralsInBrackets() {
        assertEquals("10.1.2.3:4000", Addresses.hostPort("10.1.2.3", 4000));
        assertEquals("[fd00::7]:4000", Addresses.hostPort("fd00::7", 4000));
        assertEquals("[fd00:0:0:0:0:0:0:7]:4000", Addresses.hostPort(ip("fd00::7"), 4000));
        assertEquals("fd00::7", Addresses.host("[fd00::7]:4000"));
        assertEquals(4000, Addresses.port("[fd00::7]:4000"));
        assertEquals("node-1.example", Addresses.host("node-1.example:65535"));
        for (final String bad : new String[] {"10.1.2.3", "10.1.2.3:", ":4000", "host:port", "host:70000"}) {
            final IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> {
                        Addresses.host(bad);
                        Addresses.port(bad);
                    },
                    bad);
            assertEquals("'" + bad + "' is not a host:port address", e.getMessage());
        }
    }

    @Test
    void shouldTellLoopbackAndWildcardAddressesWithoutLookingUpNames() {
        for (final String loopback : new String[] {"127.0.0.1", "127.0.1.1", "::1", "localhost"}) {
            assertTrue(Addresses.isLoopback(loopback), loopback);
            assertFalse(Addresses.isWildcard(loopback), loopback);
        }
        for (final String wildcard : new String[] {"0.0.0.0", "::"}) {
            assertTrue(Addresses.isWildcard(wildcard), wildcard);
            assertFalse(Addresses.isLoopback(wildcard), wildcard);
        }
        for (final String other : new String[] {"10.213.0.1", "fd00::7", "no-such-host.invalid"}) {
            assertFalse(Addresses.isLoopback(other) || Addresses.isWildcard(other), other);
        }
    }

    @Test
    void shouldAnnounceTheAdvertisedHostElseTheBoundOneElseEachConnectionsLocalAddress() {
        final InetAddress any = ip("0.0.0.0");
        final AnnouncedAddress advertised = AnnouncedAddress.of("front.example", "0.0.0.0", any, 4000);
        assertEquals("front.example:4000", advertised.to(ip("10.213.0.1")));
        assertEquals("front.example:4000", advertised.byDefault());

        final AnnouncedAddress bound = AnnouncedAddress.of("", "node-7", ip("10.213.0.7"), 4000);
        assertEquals("node-7:4000", bound.to(ip("127.0.0.1")), "where it listens, as the setting names it");
        assertFalse(bound.perConnection());

        final AnnouncedAddress wildcard = AnnouncedAddress.of("", "0.0.0.0", any, 4000);
        assertTrue(wildcard.perConnection());
        assertEquals("10.213.0.1:4000", wildcard.to(ip("10.213.0.1")));
        assertEquals("10.213.1.1:4000", wildcard.to(ip("10.213.1.1")), "another peer, another interface");
        assertEquals("127.0.0.1:4000", wildcard.to(ip("127.0.0.1")), "a peer on this host, over loopback");
        assertEquals("[fd00:0:0:0:0:0:0:7]:4000", wildcard.to(ip("fd00::7")));
        final String byDefault = wildcard.byDefault();
        assertEquals(Addresses.hostPort(Addresses.hostAddress(), 4000), byDefault);
        assertFalse(byDefault.startsWith("0.0.0.0") || byDefault.startsWith("[0:"), byDefault);
        assertEquals(byDefault, wildcard.to(any), "never a wildcard");
    }

    @Test
    void shouldTakeAHostAddressThatIsNeverAWildcardNorLoopbackWhileTheHostHasAnother() throws Exception {
        final InetAddress host = Addresses.hostAddress();
        assertFalse(host.isAnyLocalAddress());
        final boolean hasNetwork = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .anyMatch(i -> {
                    try {
                        return i.isUp()
                                && !i.isLoopback()
                                && Collections.list(i.getInetAddresses()).stream()
                                        .anyMatch(a -> !a.isLinkLocalAddress() && !a.isLoopbackAddress());
                    } catch (SocketException e) {
                        return false;
                    }
                });
        assertEquals(!hasNetwork, host.isLoopbackAddress(), host.toString());
    }

    @Test
    void shouldFindTheLocalAddressThatRoutesToAnother() {
        assertTrue(Addresses.routeTo(ip("127.0.0.1")).isLoopbackAddress());
        final InetAddress host = Addresses.hostAddress();
        assertEquals(host, Addresses.routeTo(host), "this host's own address is reached from itself");
    }

    @Test
    void shouldCountRefusalsAndTimeoutsAsTheNetworksNotTheHandshakes() {
        assertTrue(Addresses.isNetworkFailure(new ConnectException("Connection refused")));
        assertTrue(Addresses.isNetworkFailure(new TimeoutException()));
        assertFalse(Addresses.isNetworkFailure(new IllegalStateException("wrong deployment secret")));
        assertFalse(Addresses.isNetworkFailure(null));
    }
}
