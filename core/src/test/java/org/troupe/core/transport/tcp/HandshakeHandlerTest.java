package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.ReadTimeoutException;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.troupe.core.transport.Link;

/**
 * The handshake on channels without sockets: each side's pipeline is the transport's (frame decoder, timeout,
 * handshake), its peer is either the other side, its bytes shuttled across by hand, or a peer written here byte by
 * byte, which pins the wire format. Only the last step differs from a socket's: a link is made by a test linker
 * instead of taking over the channel, which needs a real socket.
 */
class HandshakeHandlerTest {
    private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);
    private static final byte[] GUESS = "guess".getBytes(StandardCharsets.UTF_8);
    /** As the transport's; it never fires here (see {@link #silentTooLong}). */
    private static final int TIMEOUT_SECONDS = 10;

    private final List<TcpTransport> transports = new ArrayList<>();
    private final List<EmbeddedChannel> channels = new ArrayList<>();

    /** One end of a connection: its channel, what its link handler was told, and the links its handshake made. */
    private final class Side {
        final TcpTransport transport;
        final TcpTransportTest.Recorder recorder = new TcpTransportTest.Recorder();
        final Promise<TcpLink> linked = ImmediateEventExecutor.INSTANCE.newPromise();
        final List<TcpLink> links = new ArrayList<>();
        final EmbeddedChannel channel;

        Side(final String id, final byte[] secret, final boolean connecting) {
            transport = new TcpTransport(id, secret,
                new TcpSettings("127.0.0.1", 0, Duration.ofSeconds(1), Duration.ofSeconds(5), 1 << 20));
            transports.add(transport);
            final HandshakeHandler.Linker linker = (ctx, peerId, peerAddress) -> {
                // No socket to take over: the link is only asked whom it is to.
                final TcpLink link = new TcpLink(null, peerId, peerAddress, recorder, transport);
                links.add(link);
                return link;
            };
            channel = new EmbeddedChannel(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(final Channel ch) {
                    ch.pipeline()
                        .addLast(TcpTransport.FRAMES, new FrameDecoder(Handshake.MAX_FRAME))
                        .addLast(TcpTransport.HANDSHAKE_TIMEOUT, new ReadTimeoutHandler(TIMEOUT_SECONDS))
                        .addLast("handshake", new HandshakeHandler(transport, connecting, recorder,
                            connecting ? linked : null, linker));
                }
            });
            channels.add(channel);
        }

        /** The frames this side wrote since last asked, each whole (length included). */
        List<byte[]> written() {
            final List<byte[]> frames = new ArrayList<>();
            for (ByteBuf b = channel.readOutbound(); b != null; b = channel.readOutbound()) {
                frames.add(ByteBufUtil.getBytes(b));
                b.release();
            }
            return frames;
        }

        /** Gives this side bytes as its socket would; a refusal closes the channel rather than throw. */
        void receive(final ByteBuf bytes) {
            if (channel.isOpen()) {
                channel.writeInbound(bytes);
            } else {
                bytes.release(); // a closed socket reads nothing more
            }
        }

        String failure() {
            assertTrue(linked.isDone() && !linked.isSuccess(), "the connect failed");
            return linked.cause().getMessage();
        }

        /** Nothing was made of the connection: no link, no frame handed on, the channel closed. */
        void assertRefused() {
            assertFalse(channel.isOpen(), "the channel is closed");
            assertEquals(List.of(), links, "no link was made");
            assertTrue(recorder.opened.isEmpty() && recorder.frames.isEmpty(), "the runtime heard of nothing");
            assertNull(channel.readInbound(), "nothing went past the handshake");
        }
    }

    @AfterEach
    void stopAll() {
        channels.forEach(EmbeddedChannel::finishAndReleaseAll);
        transports.forEach(TcpTransport::close);
    }

    /** Moves every frame {@code from} wrote to {@code to}; returns their kinds, in order. */
    private static String shuttle(final Side from, final Side to) {
        final StringBuilder kinds = new StringBuilder();
        for (final byte[] frame : from.written()) {
            kinds.append((char) frame[4]);
            to.receive(Unpooled.wrappedBuffer(frame));
        }
        return kinds.toString();
    }

    // --- Frames written by hand, as a peer of another implementation would ---

    private static ByteBuf frame(final Consumer<ByteBuf> body) {
        final ByteBuf b = Unpooled.buffer().writeInt(0);
        body.accept(b);
        return b.setInt(0, b.readableBytes() - 4);
    }

    private static void string(final ByteBuf b, final String s) {
        final byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.writeShort(bytes.length).writeBytes(bytes);
    }

    private static ByteBuf hello(final byte[] nonce, final String id) {
        return frame(b -> {
            b.writeByte(Handshake.HELLO).writeByte(Handshake.VERSION).writeBytes(nonce);
            string(b, id);
            string(b, "host:1");
        });
    }

    private static ByteBuf challenge(final byte[] nonce, final String id, final byte[] proof) {
        return frame(b -> {
            b.writeByte(Handshake.CHALLENGE).writeBytes(nonce);
            string(b, id);
            string(b, "host:2");
            b.writeBytes(proof);
        });
    }

    private static ByteBuf proof(final byte[] mac) {
        return frame(b -> b.writeByte(Handshake.PROOF).writeBytes(mac));
    }

    private static ByteBuf accepted() {
        return frame(b -> b.writeByte(Handshake.ACCEPTED));
    }

    /** A link's message frame, which has no place in a handshake. */
    private static ByteBuf message() {
        return frame(b -> b.writeByte(TcpLink.MESSAGE).writeBytes(new byte[] {1, 2, 3}));
    }

    /** What a side's challenge frame says. */
    private record Challenge(byte[] nonce, String id, byte[] proof) {
        static Challenge of(final byte[] frame) {
            final ByteBuffer b = ByteBuffer.wrap(frame, 4, frame.length - 4);
            assertEquals(Handshake.CHALLENGE, b.get());
            final byte[] nonce = new byte[Handshake.NONCE_BYTES];
            b.get(nonce);
            final byte[] id = new byte[b.getShort()];
            b.get(id);
            final int addressLength = b.getShort();
            b.position(b.position() + addressLength);
            final byte[] proof = new byte[Handshake.MAC_BYTES];
            b.get(proof);
            assertEquals(0, b.remaining(), "nothing after the proof");
            return new Challenge(nonce, new String(id, StandardCharsets.UTF_8), proof);
        }
    }

    /** The client nonce of a side's hello. */
    private static byte[] nonceOfHello(final byte[] frame) {
        assertEquals(Handshake.HELLO, frame[4]);
        assertEquals(Handshake.VERSION, frame[5]);
        final byte[] nonce = new byte[Handshake.NONCE_BYTES];
        System.arraycopy(frame, 6, nonce, 0, nonce.length);
        return nonce;
    }

    // --- Both sides ours ---

    @Test
    void shouldLinkBothSidesWhenBothKnowTheSecret() {
        final Side client = new Side("client", SECRET, true);
        final Side server = new Side("server", SECRET, false);
        assertEquals("h", shuttle(client, server), "the connecting side speaks first");
        assertEquals("c", shuttle(server, client));
        assertEquals("p", shuttle(client, server));
        assertTrue(client.links.isEmpty(), "the client waits to be accepted");
        assertEquals("a", shuttle(server, client));
        assertTrue(client.linked.isSuccess());
        assertEquals("server", client.linked.getNow().peerRuntimeId());
        assertEquals(List.of(client.linked.getNow()), client.links);
        final Link accepted = server.recorder.opened.poll();
        assertEquals("client", accepted.peerRuntimeId());
        assertEquals(List.of(accepted), server.links);
        assertTrue(client.channel.isOpen() && server.channel.isOpen());
        assertEquals("", shuttle(client, server) + shuttle(server, client), "the handshake says nothing more");
    }

    @Test
    void shouldNotProveAnythingToAServerThatDoesNotKnowTheSecret() {
        final Side client = new Side("client", SECRET, true);
        final Side server = new Side("server", GUESS, false);
        shuttle(client, server);
        shuttle(server, client);
        assertTrue(client.failure().contains("the peer does not know the deployment secret"), client.failure());
        assertEquals(List.of(), client.written(), "no proof of ours goes to a stranger");
        client.assertRefused();
    }

    // --- A client written here, against our server ---

    /** Says hello to {@code server} and returns its challenge. */
    private static Challenge helloFrom(final byte[] clientNonce, final Side server) {
        server.receive(hello(clientNonce, "client"));
        final List<byte[]> written = server.written();
        assertEquals(1, written.size());
        final Challenge c = Challenge.of(written.get(0));
        assertEquals("server", c.id());
        return c;
    }

    /**
     * The same client is accepted with the secret and refused without it, so the refusal is the secret's; and a
     * message that came in the same read as the wrong proof is never handed on.
     */
    @Test
    void shouldAcceptAClientThatProvesTheSecretAndRefuseOneThatCannot() {
        for (final byte[] secret : List.of(SECRET, GUESS)) {
            final Side server = new Side("server", SECRET, false);
            final byte[] clientNonce = Handshake.nonce();
            final Challenge c = helloFrom(clientNonce, server);
            final byte[] mac = new Handshake(secret).proof('C', clientNonce, c.nonce(), "client", "server");
            server.receive(Unpooled.wrappedBuffer(proof(mac), message()));
            if (secret == SECRET) {
                assertEquals(List.of("client"), server.links.stream().map(TcpLink::peerRuntimeId).toList());
                assertArrayEquals(new byte[] {0, 0, 0, 1, Handshake.ACCEPTED}, server.written().get(0));
            } else {
                assertEquals(List.of(), server.written(), "no acceptance");
                server.assertRefused();
            }
        }
    }

    /**
     * Without the role in the MAC, a client's proof would be the server's own: a stranger could send the server's
     * proof back and pass.
     */
    @Test
    void shouldRefuseAClientThatSendsTheServersProofBack() {
        final Side server = new Side("server", SECRET, false);
        final Challenge c = helloFrom(Handshake.nonce(), server);
        server.receive(proof(c.proof()));
        server.assertRefused();
    }

    @Test
    void shouldProveTheServerKnowsTheSecretWithTheServerRole() {
        final Side server = new Side("server", SECRET, false);
        final byte[] clientNonce = Handshake.nonce();
        final Challenge c = helloFrom(clientNonce, server);
        assertArrayEquals(new Handshake(SECRET).proof('S', clientNonce, c.nonce(), "client", "server"), c.proof());
    }

    @Test
    void shouldRefuseAMessageInsteadOfAHello() {
        final Side server = new Side("server", SECRET, false);
        server.receive(message());
        assertEquals(List.of(), server.written(), "no challenge");
        server.assertRefused();
    }

    @Test
    void shouldRefuseAMessageInsteadOfAProof() {
        final Side server = new Side("server", SECRET, false);
        helloFrom(Handshake.nonce(), server);
        server.receive(message());
        server.assertRefused();
    }

    static Stream<Arguments> garbledHellos() {
        final byte[] nonce = Handshake.nonce();
        return Stream.of(
            Arguments.of("empty", frame(b -> { })),
            Arguments.of("short nonce", frame(b -> b.writeByte(Handshake.HELLO).writeByte(Handshake.VERSION)
                .writeBytes(new byte[10]))),
            Arguments.of("no ids", frame(b -> b.writeByte(Handshake.HELLO).writeByte(Handshake.VERSION)
                .writeBytes(nonce))),
            Arguments.of("id longer than the frame", frame(b -> b.writeByte(Handshake.HELLO)
                .writeByte(Handshake.VERSION).writeBytes(nonce).writeShort(200).writeBytes(new byte[20]))),
            Arguments.of("oversized id", frame(b -> b.writeByte(Handshake.HELLO).writeByte(Handshake.VERSION)
                .writeBytes(nonce).writeShort(300).writeBytes(new byte[300]).writeShort(0))),
            Arguments.of("another version", frame(b -> {
                b.writeByte(Handshake.HELLO).writeByte(Handshake.VERSION + 1).writeBytes(nonce);
                string(b, "client");
                string(b, "host:1");
            })),
            Arguments.of("frame over the limit", Unpooled.buffer().writeInt(Handshake.MAX_FRAME + 1)));
    }

    /**
     * Each a hello gone wrong; {@link #shouldAcceptAClientThatProvesTheSecretAndRefuseOneThatCannot} shows that a
     * well-formed one is answered.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("garbledHellos")
    void shouldRefuseAGarbledHelloWithoutAnswering(final String what, final ByteBuf hello) {
        final Side server = new Side("server", SECRET, false);
        server.receive(hello);
        assertEquals(List.of(), server.written(), "no challenge");
        server.assertRefused();
    }

    /**
     * What the transport's read timeout raises when a peer stays silent; fired by hand because that handler reads
     * the system clock, which an embedded channel's virtual time does not move.
     */
    private static void silentTooLong(final Side side) {
        side.channel.pipeline().fireExceptionCaught(ReadTimeoutException.INSTANCE);
    }

    @Test
    void shouldDropAClientThatSaysNothing() {
        final Side server = new Side("server", SECRET, false);
        silentTooLong(server);
        server.assertRefused();
    }

    // --- A server written here, against our client ---

    /** A client's hello, and the nonce in it. */
    private static byte[] helloOf(final Side client) {
        final List<byte[]> written = client.written();
        assertEquals(1, written.size());
        return nonceOfHello(written.get(0));
    }

    @Test
    void shouldRefuseAServerWhoseProofHasTheClientsRole() {
        final Side client = new Side("client", SECRET, true);
        final byte[] clientNonce = helloOf(client);
        final byte[] serverNonce = Handshake.nonce();
        client.receive(challenge(serverNonce, "server",
            new Handshake(SECRET).proof('C', clientNonce, serverNonce, "client", "server")));
        assertTrue(client.failure().contains("does not know the deployment secret"), client.failure());
        assertEquals(List.of(), client.written());
        client.assertRefused();
    }

    /** A proof for another server id is no proof: the ids are in the MAC. */
    @Test
    void shouldRefuseAServerThatClaimsAnotherIdThanItProved() {
        final Side client = new Side("client", SECRET, true);
        final byte[] clientNonce = helloOf(client);
        final byte[] serverNonce = Handshake.nonce();
        client.receive(challenge(serverNonce, "impostor",
            new Handshake(SECRET).proof('S', clientNonce, serverNonce, "client", "server")));
        assertTrue(client.failure().contains("does not know the deployment secret"), client.failure());
        client.assertRefused();
    }

    @Test
    void shouldRefuseAnAcceptanceBeforeTheChallenge() {
        final Side client = new Side("client", SECRET, true);
        helloOf(client);
        client.receive(accepted());
        assertTrue(client.failure().contains("did not answer with a challenge"), client.failure());
        client.assertRefused();
    }

    @Test
    void shouldRefuseAMessageInsteadOfTheAcceptance() {
        final Side client = new Side("client", SECRET, true);
        final byte[] clientNonce = helloOf(client);
        final byte[] serverNonce = Handshake.nonce();
        client.receive(challenge(serverNonce, "server",
            new Handshake(SECRET).proof('S', clientNonce, serverNonce, "client", "server")));
        assertEquals(1, client.written().size(), "the client's proof");
        client.receive(message());
        assertTrue(client.failure().contains("did not accept"), client.failure());
        client.assertRefused();
    }

    @Test
    void shouldRefuseAShortChallenge() {
        final Side client = new Side("client", SECRET, true);
        helloOf(client);
        client.receive(frame(b -> b.writeByte(Handshake.CHALLENGE).writeBytes(new byte[Handshake.NONCE_BYTES])));
        assertTrue(client.failure().contains("malformed handshake frame"), client.failure());
        client.assertRefused();
    }

    @Test
    void shouldRefuseAFrameOverTheLimitFromTheServer() {
        final Side client = new Side("client", SECRET, true);
        helloOf(client);
        client.receive(Unpooled.buffer().writeInt(Handshake.MAX_FRAME + 1));
        assertTrue(client.failure().contains("at most " + Handshake.MAX_FRAME), client.failure());
        client.assertRefused();
    }

    @Test
    void shouldFailTheConnectWhenTheServerHangsUpOrSaysNothing() {
        final Side hungUp = new Side("client", SECRET, true);
        hungUp.channel.pipeline().fireChannelInactive();
        assertTrue(hungUp.failure().contains("closed the connection during the handshake"), hungUp.failure());
        final Side silent = new Side("client", SECRET, true);
        helloOf(silent);
        silentTooLong(silent);
        assertTrue(silent.failure().contains("ReadTimeoutException"), silent.failure());
        silent.assertRefused();
    }
}
