package org.troupe.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.NoRouteToHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.commons.configuration2.MapConfiguration;
import org.junit.jupiter.api.Test;
import org.troupe.config.TroupeSettings;
import org.troupe.core.transport.Addresses;

/** Where a node JVM listens when nothing says, and what it tells the user when its parent cannot be reached. */
class NodeMainTest {
    private static final InetAddress PARENT = Addresses.resolve("10.213.0.1");
    private static final InetAddress ROUTE = Addresses.resolve("10.213.0.2");
    /** The route a test host would take: only to the parent's network. */
    private static final Function<InetAddress, InetAddress> ROUTES = to -> {
        assertEquals(PARENT, to, "only the parent's route is looked up");
        return ROUTE;
    };

    private static String bind(final Map<String, Object> settings, final InetAddress parent) {
        return NodeMain.bindAddress(new MapConfiguration(settings), parent, ROUTES);
    }

    @Test
    void shouldListenOnTheAddressThatRoutesToAParentOnTheNetwork() {
        assertEquals("10.213.0.2", bind(Map.of(), PARENT));
    }

    @Test
    void shouldKeepLoopbackForAParentOnThisHost() {
        assertNull(bind(Map.of(), Addresses.resolve("127.0.0.1")));
        assertNull(bind(Map.of(), Addresses.resolve("::1")));
        assertNull(bind(Map.of(), Addresses.resolve("0.0.0.0")), "a wildcard reaches this host");
    }

    @Test
    void shouldKeepTheBindAddressOfTheSettingsWhateverTheParent() {
        assertNull(bind(Map.of(CoreConfig.BIND_ADDRESS_PROP_NAME, "0.0.0.0"), PARENT));
        assertNull(bind(Map.of(CoreConfig.BIND_ADDRESS_PROP_NAME, "127.0.0.1"), PARENT));
    }

    /** A system property reaches a node JVM as the environment does (NetworkNamespacesTest starts one with each). */
    @Test
    void shouldSeeTheBindAddressGivenAsASystemProperty() {
        final String key = CoreConfig.BIND_ADDRESS_PROP_NAME;
        final String before = System.getProperty(key);
        System.setProperty(key, "10.213.0.9");
        try {
            assertNull(NodeMain.bindAddress(TroupeSettings.load(), PARENT, ROUTES));
            assertEquals(
                    "10.213.0.9", CoreConfig.fromSettings(TroupeSettings.load()).bindAddress());
        } finally {
            if (before == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, before);
            }
        }
    }

    @Test
    void shouldListenEverywhereWhenOnlyTheAdvertisedAddressIsSet() {
        assertEquals("0.0.0.0", bind(Map.of(CoreConfig.ADVERTISE_ADDRESS_PROP_NAME, "gateway.example"), PARENT));
    }

    @Test
    void shouldNameTheSettingWhenAParentAtALoopbackAddressCannotBeReached() {
        final String hint = NodeMain.registrationHint(
                "127.0.0.1", Addresses.resolve("127.0.0.1"), new ConnectException("Connection refused"));
        assertEquals(
                "; the parent announced 127.0.0.1, a loopback address, which no other host can reach: if the"
                        + " parent (the launcher) runs on another host than this node, start it with troupe.core.bindAddress=<an"
                        + " address of its host that this host reaches> (or 0.0.0.0)",
                hint);
    }

    @Test
    void shouldSayWhatToCheckWhenAParentOnTheNetworkCannotBeReached() {
        final String hint = NodeMain.registrationHint("10.213.0.1", PARENT, new ConnectException("No route to host"));
        assertTrue(
                hint.contains("check that 10.213.0.1 is an address of the parent's host that this host reaches")
                        && hint.contains("troupe.core.bindAddress=10.213.0.1 (or 0.0.0.0)"),
                hint);
        assertTrue(NodeMain.registrationHint("0.0.0.0", Addresses.resolve("0.0.0.0"), new ConnectException("refused"))
                .contains(CoreConfig.ADVERTISE_ADDRESS_PROP_NAME));
    }

    @Test
    void shouldAddNothingWhenTheParentAnsweredAndTheHandshakeFailed() {
        assertEquals(
                "",
                NodeMain.registrationHint(
                        "127.0.0.1",
                        Addresses.resolve("127.0.0.1"),
                        new IllegalStateException("handshake with 127.0.0.1:4000 failed: wrong deployment secret")));
    }

    /** A front-end's addresses, campus network first: this host routes to the cluster network only. */
    private static final Function<InetAddress, InetAddress> CLUSTER_ONLY = to -> {
        if (!to.getHostAddress().startsWith("10.213.")) {
            throw new UncheckedIOException(new NoRouteToHostException("Network is unreachable"));
        }
        return ROUTE;
    };

    @Test
    void shouldRegisterWithTheFirstOfTheParentsAddressesThatItHasARouteToAndThatAnswers() {
        final List<String> probed = new ArrayList<>();
        final String parent = NodeMain.firstAnswering(
                List.of("192.0.2.1:4000", "10.213.0.9:4000", "10.213.0.1:4000"), CLUSTER_ONLY, c -> {
                    probed.add(c);
                    return c.equals("10.213.0.1:4000") ? null : "Connection refused";
                });
        assertEquals("10.213.0.1:4000", parent);
        assertEquals(List.of("10.213.0.9:4000", "10.213.0.1:4000"), probed, "no probe without a route");
    }

    @Test
    void shouldSayWhyEachOfTheParentsAddressesFailedWhenNoneAnswers() {
        final IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> NodeMain.firstAnswering(
                        List.of("192.0.2.1:4000", "10.213.0.1:4000"), CLUSTER_ONLY, c -> "connect timed out"));
        assertEquals(
                "none of the parent's addresses answered (192.0.2.1:4000: no route"
                        + " (java.net.NoRouteToHostException: Network is unreachable); 10.213.0.1:4000: connect timed out): check"
                        + " that this host reaches the"
                        + " parent's host at one of them (no firewall in between), or start the parent (the launcher) with"
                        + " troupe.core.advertiseAddress=<an address of its host that this host reaches>",
                e.getMessage());
    }
}
