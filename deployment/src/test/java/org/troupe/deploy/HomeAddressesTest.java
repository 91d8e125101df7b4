package org.troupe.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.troupe.core.CoreConfig;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.deploy.descriptor.Descriptor;
import org.troupe.deploy.descriptor.ProcessSpec;
import org.troupe.deploy.descriptor.VirtualNodeSpec;

/**
 * Where node JVMs dial the launcher, for descriptors that stay here or reach other hosts, on a network of the test's:
 * this host is 10.1.0.1 on one network and 10.2.0.1 on another, with 172.16.0.9 as its first address.
 */
class HomeAddressesTest {
    private static final InetAddress HERE_A = ip("10.1.0.1");
    private static final InetAddress HERE_B = ip("10.2.0.1");
    private static final InetAddress FIRST = ip("172.16.0.9");
    private static final CoreConfig DEFAULTS = CoreConfig.builder().build();

    /** Hosts a.example (10.1.0.5) and b.example (10.2.0.7) on this host's two networks; c.example has no route. */
    private static final HomeAddresses.Network NET = new HomeAddresses.Network() {
        @Override
        public InetAddress resolve(final String host) throws UnknownHostException {
            return switch (host) {
                case "a.example" -> ip("10.1.0.5");
                case "b.example" -> ip("10.2.0.7");
                case "c.example" -> ip("192.0.2.1");
                case "localhost" -> ip("127.0.0.1");
                case "me.example" -> HERE_A;
                case "vm" -> ip("127.0.1.1"); // this host's name, as /etc/hosts of Debian-like systems maps it
                default -> throw new UnknownHostException(host);
            };
        }

        @Override
        public boolean isThisHost(final InetAddress address) {
            return address.isLoopbackAddress()
                    || address.equals(HERE_A)
                    || address.equals(HERE_B)
                    || address.equals(FIRST);
        }

        @Override
        public InetAddress routeTo(final InetAddress remote) {
            final String a = remote.getHostAddress();
            if (a.startsWith("10.1.")) {
                return HERE_A;
            }
            if (a.startsWith("10.2.")) {
                return HERE_B;
            }
            throw new UncheckedIOException("Network is unreachable", new SocketException("Network is unreachable"));
        }

        @Override
        public InetAddress hostAddress() {
            return FIRST;
        }

        @Override
        public List<InetAddress> addresses() {
            return List.of(FIRST, HERE_A, HERE_B);
        }
    };

    /** {@link #NET} on a host with one address, {@link #FIRST}. */
    private static final HomeAddresses.Network SINGLE = new HomeAddresses.Network() {
        @Override
        public InetAddress resolve(final String host) throws UnknownHostException {
            return NET.resolve(host);
        }

        @Override
        public boolean isThisHost(final InetAddress address) {
            return NET.isThisHost(address);
        }

        @Override
        public InetAddress routeTo(final InetAddress remote) {
            return NET.routeTo(remote);
        }

        @Override
        public InetAddress hostAddress() {
            return FIRST;
        }

        @Override
        public List<InetAddress> addresses() {
            return List.of(FIRST);
        }
    };

    private static InetAddress ip(final String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static ProcessSpec jvms() {
        return new ProcessSpec.Jvm("jvms", "", "", List.of(), Map.of(), 2, 1);
    }

    private static ProcessSpec local() {
        return new ProcessSpec.Local("here", jvms());
    }

    private static ProcessSpec ssh(final String id, final String host) {
        return new ProcessSpec.Ssh(id, host, 22, "", "", ProcessSpec.KnownHosts.STRICT, false, jvms());
    }

    private static ProcessSpec slurm() {
        return new ProcessSpec.Local("front", new ProcessSpec.Slurm("cluster", 2, 2, "00:10:00", "", jvms()));
    }

    private static Descriptor descriptor(final ProcessSpec... chains) {
        return new Descriptor(
                Path.of("grid.xml"), List.of(new VirtualNodeSpec("vn", 4, false)), Map.of("vn", List.of(chains)));
    }

    private static HomeAddresses.Choice choose(final Descriptor d, final CoreConfig config) {
        return HomeAddresses.choose(d, config, "", "", NET);
    }

    @Test
    void aDescriptorThatStaysOnThisHostChangesNothing() {
        final ProcessSpec here = local();
        final ProcessSpec sshHere = ssh("self", "localhost");
        final ProcessSpec sshMe = ssh("me", "me.example");
        final HomeAddresses.Choice c = choose(descriptor(here, sshHere, sshMe), DEFAULTS);
        assertNull(c.listenOn());
        assertNull(c.note());
        assertEquals("127.0.0.1", c.hostFor(here));
        assertEquals("127.0.0.1", c.hostFor(sshMe));
    }

    @Test
    void withNoBindAddressSetTheLauncherListensOnTheAddressThatRoutesToTheHostsAndSoDoItsLocalJvms() {
        final ProcessSpec remote = ssh("a", "a.example");
        final ProcessSpec here = local();
        final HomeAddresses.Choice c = choose(descriptor(here, remote), DEFAULTS);
        assertEquals("10.1.0.1", c.listenOn());
        assertEquals("10.1.0.1", c.hostFor(remote));
        assertEquals("10.1.0.1", c.hostFor(here), "local JVMs listen where the remote ones reach them");
        assertEquals(
                "grid.xml reaches other hosts (ssh 'a' a.example 10.1.0.5) and"
                        + " troupe.core.bindAddress is not set: this JVM listens on 10.1.0.1, the address of this host that"
                        + " routes to them; its node JVMs dial 10.1.0.1",
                c.note());
    }

    @Test
    void hostsOnTwoNetworksMakeTheLauncherListenOnEveryInterfaceAndEachLaunchDialItsOwnRoute() {
        final ProcessSpec a = ssh("a", "a.example");
        final ProcessSpec b = ssh("b", "b.example");
        final HomeAddresses.Choice c = choose(descriptor(a, b), DEFAULTS);
        assertEquals("0.0.0.0", c.listenOn());
        assertEquals("10.1.0.1", c.hostFor(a));
        assertEquals("10.2.0.1", c.hostFor(b));
        assertTrue(
                c.note()
                        .endsWith("this JVM listens on every interface (0.0.0.0); its node JVMs dial the address"
                                + " that routes to their host (10.1.0.1 for ssh 'a' a.example 10.1.0.5, 10.2.0.1 for ssh 'b' b.example"
                                + " 10.2.0.7)"),
                c.note());
    }

    @Test
    void theComputeNodesOfABatchSystemHereDialThisHostsAddress() {
        final ProcessSpec batch = slurm();
        final HomeAddresses.Choice c = HomeAddresses.choose(descriptor(batch), DEFAULTS, "", "", SINGLE);
        assertEquals("172.16.0.9", c.listenOn());
        assertEquals("172.16.0.9", c.hostFor(batch));
        assertTrue(
                c.note()
                        .contains("(the compute nodes of slurm 'cluster') and troupe.core.bindAddress is not set:"
                                + " this JVM listens on 172.16.0.9, this host's address;"),
                c.note());
    }

    @Test
    void aWildcardBindAddressIsKeptAndEachLaunchDialsItsRoute() {
        final ProcessSpec a = ssh("a", "a.example");
        final HomeAddresses.Choice c = choose(
                descriptor(a), CoreConfig.builder().bindAddress("0.0.0.0").build());
        assertNull(c.listenOn(), "listening as configured");
        assertEquals("10.1.0.1", c.hostFor(a));
        assertTrue(
                c.note().contains("troupe.core.bindAddress=0.0.0.0 makes this JVM listen on every interface"),
                c.note());
    }

    @Test
    void anAddressTheUserChoseIsWhatTheJvmsDial() {
        final ProcessSpec a = ssh("a", "a.example");
        final HomeAddresses.Choice chosen = choose(
                descriptor(a), CoreConfig.builder().bindAddress("10.9.9.9").build());
        assertNull(chosen.listenOn());
        assertEquals("10.9.9.9", chosen.hostFor(a));
        final HomeAddresses.Choice advertised = choose(
                descriptor(a),
                CoreConfig.builder().advertiseAddress("front.example").build());
        assertEquals("0.0.0.0", advertised.listenOn(), "reached through another address: every interface");
        assertEquals("front.example", advertised.hostFor(a));
        assertTrue(
                advertised
                        .note()
                        .contains("its node JVMs dial front.example, which troupe.core.advertiseAddress" + " names"),
                advertised.note());
    }

    @Test
    void aLoopbackBindAddressSetOnPurposeFailsNamingTheSettingAndTheValueToTry() {
        final TroupeException e = assertThrows(
                TroupeException.class,
                () -> choose(
                        descriptor(local(), ssh("a", "a.example")),
                        CoreConfig.builder().bindAddress("127.0.0.1").build()));
        assertEquals(
                "grid.xml reaches other hosts (ssh 'a' a.example 10.1.0.5), which cannot reach"
                        + " this JVM at 127.0.0.1: troupe.core.bindAddress=127.0.0.1 makes it listen there; set"
                        + " troupe.core.bindAddress=10.1.0.1 (the address of this host that routes to ssh 'a' a.example 10.1.0.5),"
                        + " or 0.0.0.0 for every interface, or leave it unset for the deployment to choose",
                e.getMessage());
    }

    @Test
    void aRuntimeListeningOnLoopbackAlreadyFailsSayingSo() {
        final TroupeException e = assertThrows(
                TroupeException.class,
                () -> HomeAddresses.choose(
                        descriptor(ssh("a", "a.example")), DEFAULTS, "127.0.0.1", "127.0.0.1:4100", NET));
        assertTrue(
                e.getMessage()
                        .contains("its runtime listens there already (127.0.0.1:4100), as"
                                + " troupe.core.bindAddress says, since before this deployment started; set"
                                + " troupe.core.bindAddress=10.1.0.1"),
                e.getMessage());
    }

    @Test
    void aRuntimeListeningElsewhereAlreadyIsDialedWhereItListens() {
        final ProcessSpec a = ssh("a", "a.example");
        final HomeAddresses.Choice c = HomeAddresses.choose(descriptor(a), DEFAULTS, "10.1.0.1", "10.1.0.1:4100", NET);
        assertNull(c.listenOn());
        assertEquals("10.1.0.1", c.hostFor(a));
        assertTrue(c.note().endsWith("its node JVMs dial 10.1.0.1, where this JVM listens already"), c.note());
    }

    @Test
    void aHostWithNoRouteFailsNamingItAndWhatToSet() {
        final TroupeException e =
                assertThrows(TroupeException.class, () -> choose(descriptor(ssh("c", "c.example")), DEFAULTS));
        assertTrue(
                e.getMessage()
                        .contains("but this host has no route to ssh 'c' c.example 192.0.2.1 (Network is"
                                + " unreachable): check the host, or set troupe.core.bindAddress to an address of this host that it"
                                + " reaches"),
                e.getMessage());
    }

    @Test
    void aHostNameThatDoesNotResolveIsLeftToItsSshStep() {
        final ProcessSpec alone = ssh("x", "unknown.example");
        final HomeAddresses.Choice nothing = choose(descriptor(alone), DEFAULTS);
        assertNull(nothing.listenOn());
        assertEquals("127.0.0.1", nothing.hostFor(alone));
        assertTrue(
                nothing.note()
                        .endsWith(
                                "reaches other hosts (ssh 'x' unknown.example, which does not resolve"
                                        + " here): no address is chosen for them (their launches fail to connect); node JVMs dial 127.0.0.1"),
                nothing.note());
        final ProcessSpec unknown = ssh("x", "unknown.example");
        final ProcessSpec a = ssh("a", "a.example");
        final HomeAddresses.Choice c = choose(descriptor(unknown, a), DEFAULTS);
        assertEquals("10.1.0.1", c.listenOn());
        assertEquals("10.1.0.1", c.hostFor(unknown), "it fails to connect; meanwhile it gets what the others do");
        assertTrue(c.note().contains("ssh 'x' unknown.example, which does not resolve here"), c.note());
    }

    /** A front-end on a campus network and a cluster network: which one the compute nodes reach is not known here. */
    @Test
    void theComputeNodesOfABatchSystemOnAHostWithSeveralAddressesTryEachOfThem() {
        final ProcessSpec batch = slurm();
        final HomeAddresses.Choice c = choose(descriptor(batch), DEFAULTS);
        assertEquals("0.0.0.0", c.listenOn(), "listening where each of them reaches");
        assertEquals(List.of(FIRST, HERE_A, HERE_B), c.dial().get(batch));
        assertEquals("172.16.0.9, 10.1.0.1, 10.2.0.1 (the first that answers)", c.hostFor(batch), "as --check shows");
        assertTrue(
                c.note()
                        .endsWith("this JVM listens on every interface (0.0.0.0); its node JVMs dial the address"
                                + " that routes to their host (the first that answers of 172.16.0.9, 10.1.0.1, 10.2.0.1 for the compute"
                                + " nodes of slurm 'cluster')"),
                c.note());
        final HomeAddresses.Choice wildcard = choose(
                descriptor(batch), CoreConfig.builder().bindAddress("0.0.0.0").build());
        assertNull(wildcard.listenOn(), "listening as configured");
        assertEquals(List.of(FIRST, HERE_A, HERE_B), wildcard.dial().get(batch), "a wildcard bind address too");
    }

    @Test
    void localJvmsListenOnEveryInterfaceWhenTheHostsAreOnSeveralNetworks() {
        final ProcessSpec here = local();
        final ProcessSpec a = ssh("a", "a.example");
        final ProcessSpec b = ssh("b", "b.example");
        final HomeAddresses.Choice c = choose(descriptor(here, a, b), DEFAULTS);
        assertEquals(Map.of(here, "0.0.0.0"), c.listenEverywhere(), "b's JVMs reach them on the second network");
        assertEquals("10.1.0.1", c.hostFor(here), "they dial this host: any of its addresses");
        assertTrue(c.note().endsWith(", and those of this host listen on every interface"), c.note());
        assertEquals(
                Map.of(),
                choose(descriptor(here, a), DEFAULTS).listenEverywhere(),
                "one network: they listen on its address, as they dial it");
        assertEquals(
                Map.of(here, "0.0.0.0"),
                choose(
                                descriptor(here, a, b),
                                CoreConfig.builder().bindAddress("0.0.0.0").build())
                        .listenEverywhere());
    }

    @Test
    void aBindAddressNamingThisHostAsLoopbackFailsAsALoopbackAddressDoes() {
        final TroupeException e = assertThrows(
                TroupeException.class,
                () -> choose(
                        descriptor(ssh("a", "a.example")),
                        CoreConfig.builder().bindAddress("vm").build()));
        assertTrue(
                e.getMessage()
                        .startsWith("grid.xml reaches other hosts (ssh 'a' a.example 10.1.0.5), which cannot"
                                + " reach this JVM at vm (127.0.1.1): troupe.core.bindAddress=vm makes it listen there; set"
                                + " troupe.core.bindAddress=10.1.0.1 (the address"),
                e.getMessage());
    }

    @Test
    void aLoopbackAdvertisedAddressFailsWhenTheDescriptorReachesOtherHosts() {
        for (final String loopback : List.of("127.0.0.1", "localhost")) {
            final TroupeException e = assertThrows(
                    TroupeException.class,
                    () -> choose(
                            descriptor(ssh("a", "a.example")),
                            CoreConfig.builder().advertiseAddress(loopback).build()));
            assertEquals(
                    "grid.xml reaches other hosts (ssh 'a' a.example 10.1.0.5), which cannot reach this JVM at "
                            + (loopback.equals("localhost") ? "localhost (127.0.0.1)" : loopback)
                            + ": troupe.core.advertiseAddress=" + loopback + " makes it announce that; set"
                            + " troupe.core.advertiseAddress=10.1.0.1 (the address of this"
                            + " host that routes to ssh 'a' a.example 10.1.0.5), or leave it unset for the deployment to choose",
                    e.getMessage());
        }
        assertNull(
                choose(
                                descriptor(local()),
                                CoreConfig.builder()
                                        .advertiseAddress("127.0.0.1")
                                        .build())
                        .note(),
                "a descriptor that stays here may announce loopback");
    }
}
