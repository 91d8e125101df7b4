package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.transport.Addresses;
import org.troupe.core.transport.Link;

/**
 * What runtimes announce to each other in the handshake, over real sockets on this host's loopback network
 * (127.0.0.1 and 127.0.0.2 are two addresses of it): a runtime bound to a wildcard tells each peer the address
 * that peer reached it at, or, when it dials, the local address of its own connection.
 */
class AnnouncedAddressTest {
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private final List<TcpTransport> transports = new ArrayList<>();

    private TcpTransport transport(final String id, final String bindHost, final String advertiseHost) {
        final TcpTransport t = new TcpTransport(
                id,
                SECRET,
                new TcpSettings(
                        bindHost, advertiseHost, 0, Duration.ofMillis(200), Duration.ofSeconds(5), 1 << 20, true));
        transports.add(t);
        return t;
    }

    @AfterEach
    void closeAll() {
        transports.forEach(TcpTransport::close);
    }

    @Test
    void shouldAnnounceToEachPeerTheAddressItReachedAWildcardBoundRuntimeAt() throws Exception {
        final TcpTransportTest.Recorder serverSide = new TcpTransportTest.Recorder();
        final String byDefault = transport("server", "0.0.0.0", "").listen(serverSide);
        assertFalse(Addresses.isWildcard(Addresses.host(byDefault)), byDefault);
        final int port = Addresses.port(byDefault);
        final Link viaOne = transport("a", "127.0.0.1", "")
                .connect("127.0.0.1:" + port, "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        final Link viaTwo = transport("b", "127.0.0.1", "")
                .connect("127.0.0.2:" + port, "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        assertEquals("127.0.0.1:" + port, viaOne.peerAddress());
        assertEquals("127.0.0.2:" + port, viaTwo.peerAddress());
        final List<String> toldOnServerSide = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            final Link accepted = serverSide.opened.poll(5, TimeUnit.SECONDS);
            assertNotNull(accepted);
            toldOnServerSide.add(accepted.peerRuntimeId() + "=" + accepted.localAddress());
        }
        assertTrue(
                toldOnServerSide.containsAll(List.of("a=127.0.0.1:" + port, "b=127.0.0.2:" + port)),
                toldOnServerSide.toString());
        // What b was told reaches the server from a third runtime, which never dialed it: it names the server.
        final Link third = transport("c", "127.0.0.1", "")
                .connect(viaTwo.peerAddress(), "server", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        assertEquals("server", third.peerRuntimeId());
    }

    @Test
    void shouldAnnounceTheLocalAddressOfItsOwnConnectionWhenAWildcardBoundRuntimeDials() throws Exception {
        final TcpTransportTest.Recorder serverSide = new TcpTransportTest.Recorder();
        final String server = transport("server", "127.0.0.1", "").listen(serverSide);
        final TcpTransport client = transport("client", "0.0.0.0", "");
        final int clientPort = Addresses.port(client.listen(new TcpTransportTest.Recorder()));
        final Link link = client.connect(server, "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        final Link accepted = serverSide.opened.poll(5, TimeUnit.SECONDS);
        assertNotNull(accepted);
        assertEquals("127.0.0.1:" + clientPort, accepted.peerAddress(), "where the server reaches it back");
        assertEquals(accepted.peerAddress(), link.localAddress());
        // and that address reaches the client, under the id it proved
        final Link back = transport("other", "127.0.0.1", "")
                .connect(accepted.peerAddress(), "client", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        assertEquals("client", back.peerRuntimeId());
    }

    @Test
    void shouldAnnounceTheAdvertisedHostToEveryPeerWhereverItListens() throws Exception {
        final TcpTransportTest.Recorder serverSide = new TcpTransportTest.Recorder();
        final String byDefault = transport("server", "0.0.0.0", "front.example").listen(serverSide);
        final int port = Addresses.port(byDefault);
        assertEquals("front.example:" + port, byDefault);
        final Link link = transport("client", "127.0.0.1", "")
                .connect("127.0.0.2:" + port, "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        assertEquals("front.example:" + port, link.peerAddress());
    }

    @Test
    void shouldAnnounceNothingUntilItListensAndItsAddressOnceItDoes() throws Exception {
        final TcpTransportTest.Recorder serverSide = new TcpTransportTest.Recorder();
        final String server = transport("server", "127.0.0.1", "").listen(serverSide);
        final TcpTransport client = transport("client", "127.0.0.1", "");
        final Link link = client.connect(server, "", new TcpTransportTest.Recorder(), Duration.ofSeconds(5));
        final Link accepted = serverSide.opened.poll(5, TimeUnit.SECONDS);
        assertNotNull(accepted);
        assertEquals("", accepted.peerAddress(), "the client did not listen when it dialed");
        assertEquals("", link.localAddress());
        final String listening = client.listen(new TcpTransportTest.Recorder());
        assertEquals(listening, link.localAddress(), "what it sends on the link names where it listens now");
    }
}
