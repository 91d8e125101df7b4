package org.troupe.core.transport.tcp;

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
import java.util.Arrays;
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
 * byte, which pins the wire format: hello (nonce), challenge (nonce), the client's proof, the server's acceptance
 * (its id and proof), the client's identity (its id and proof). Only the last step differs from a socket's: a link is made by a test linker
 * instead of taking over the channel, which needs a real socket.
 */
class HandshakeHandlerTest {
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private static final byte[] GUESS = "0123456789abcdef0123456789abcdeF".getBytes(StandardCharsets.UTF_8);
    private static final byte ON = Handshake.AUTHENTICATED_FRAMES;
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
        /** The frame keys each link got: sending, then receiving. */
        final List<FrameMac> macs = new ArrayList<>();

        final EmbeddedChannel channel;

        Side(final String id, final byte[] secret, final boolean connecting) {
            this(id, secret, connecting, "", true);
        }

        Side(
                final String id,
                final byte[] secret,
                final boolean connecting,
                final String expectedId,
                final boolean authenticateFrames) {
            transport = new TcpTransport(
                    id,
                    secret,
                    new TcpSettings(
                            "127.0.0.1", 0, Duration.ofSeconds(1), Duration.ofSeconds(5), 1 << 20, authenticateFrames));
            transports.add(transport);
            final HandshakeHandler.Linker linker = (ctx, peerId, peerAddress, sending, receiving, sharedMemory) -> {
                // No socket to take over: the link is only asked whom it is to.
                final TcpLink link =
                        new TcpLink(null, peerId, peerAddress, recorder, transport, sending, receiving, sharedMemory);
                links.add(link);
                macs.add(sending);
                macs.add(receiving);
                return link;
            };
            channel = new EmbeddedChannel(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(final Channel ch) {
                    ch.pipeline()
                            .addLast(TcpTransport.FRAMES, new FrameDecoder(Handshake.MAX_FRAME))
                            .addLast(TcpTransport.HANDSHAKE_TIMEOUT, new ReadTimeoutHandler(TIMEOUT_SECONDS))
                            .addLast(
                                    "handshake",
                                    new HandshakeHandler(
                                            transport,
                                            connecting,
                                            expectedId,
                                            recorder,
                                            connecting ? linked : null,
                                            linker));
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

    private static ByteBuf hello(final byte[] nonce) {
        return frame(b -> b.writeByte(Handshake.HELLO)
                .writeByte(Handshake.VERSION)
                .writeByte(ON)
                .writeBytes(nonce));
    }

    private static ByteBuf challenge(final byte flags, final byte[] nonce) {
        return frame(b -> b.writeByte(Handshake.CHALLENGE).writeByte(flags).writeBytes(nonce));
    }

    private static ByteBuf proof(final byte[] mac) {
        return frame(b -> b.writeByte(Handshake.PROOF).writeBytes(mac));
    }

    private static ByteBuf accepted(final String id, final byte[] mac) {
        return frame(b -> {
            b.writeByte(Handshake.ACCEPTED);
            string(b, id);
            string(b, "host:2");
            b.writeBytes(mac);
        });
    }

    private static ByteBuf identified(final String id, final byte[] mac) {
        return frame(b -> {
            b.writeByte(Handshake.IDENTIFIED);
            string(b, id);
            string(b, "host:1");
            b.writeBytes(mac);
        });
    }

    /** A link's message frame, which has no place in a handshake. */
    private static ByteBuf message() {
        return frame(b -> b.writeByte(FrameDescriptor.MESSAGE).writeBytes(new byte[] {1, 2, 3}));
    }

    /** The nonce of a side's challenge frame, which carries nothing else but the settings. */
    private static byte[] nonceOfChallenge(final byte[] frame) {
        assertEquals(4 + 2 + Handshake.NONCE_BYTES, frame.length, "nothing computed from the secret, no id");
        assertEquals(Handshake.CHALLENGE, frame[4]);
        assertEquals(ON, frame[5]);
        return Arrays.copyOfRange(frame, 6, frame.length);
    }

    /** The client nonce of a side's hello. */
    private static byte[] nonceOfHello(final byte[] frame) {
        assertEquals(4 + 3 + Handshake.NONCE_BYTES, frame.length, "no id");
        assertEquals(Handshake.HELLO, frame[4]);
        assertEquals(Handshake.VERSION, frame[5]);
        assertEquals(ON, frame[6]);
        return Arrays.copyOfRange(frame, 7, frame.length);
    }

    private static boolean mentions(final List<byte[]> frames, final String text) {
        return frames.stream().anyMatch(f -> new String(f, StandardCharsets.ISO_8859_1).contains(text));
    }

    // --- Both sides ours ---

    @Test
    void shouldLinkBothSidesWhenBothKnowTheSecret() {
        final Side client = new Side("client", SECRET, true, "server", true);
        final Side server = new Side("server", SECRET, false);
        final List<byte[]> beforeProof = new ArrayList<>();
        final StringBuilder kinds = new StringBuilder();
        for (int step = 0; step < 3; step++) { // hello, challenge, proof: nobody's id goes to an unproved peer
            final Side from = step % 2 == 0 ? client : server;
            for (final byte[] f : from.written()) {
                beforeProof.add(f);
                kinds.append((char) f[4]);
                (from == client ? server : client).receive(Unpooled.wrappedBuffer(f));
            }
        }
        assertEquals("hcp", kinds.toString(), "the connecting side speaks first, and proves first");
        assertFalse(mentions(beforeProof, "client") || mentions(beforeProof, "server"), "no id before a proof");
        assertTrue(client.links.isEmpty(), "the client waits to be accepted");
        assertEquals("a", shuttle(server, client));
        assertTrue(client.linked.isSuccess());
        assertEquals("server", client.linked.getNow().peerRuntimeId());
        assertTrue(server.links.isEmpty(), "the server waits for the client's identity");
        assertEquals("i", shuttle(client, server));
        final Link accepted = server.recorder.opened.poll();
        assertEquals("client", accepted.peerRuntimeId());
        assertEquals(List.of(accepted), server.links);
        assertTrue(client.channel.isOpen() && server.channel.isOpen());
        assertEquals("", shuttle(client, server) + shuttle(server, client), "the handshake says nothing more");
    }

    /** What one side tags, the other checks: each direction's keys agree, and differ from the other's. */
    @Test
    void shouldGiveBothSidesTheFrameKeysOfEachDirection() {
        final Side client = new Side("client", SECRET, true);
        final Side server = new Side("server", SECRET, false);
        shuttle(client, server);
        shuttle(server, client);
        shuttle(client, server);
        shuttle(server, client);
        shuttle(client, server);
        assertEquals(2, client.macs.size());
        assertEquals(2, server.macs.size());
        final byte[] frame = "a frame".getBytes(StandardCharsets.UTF_8);
        assertTrue(tagChecks(client.macs.get(0), server.macs.get(1), frame), "client to server");
        assertTrue(tagChecks(server.macs.get(0), client.macs.get(1), frame), "server to client");
        assertFalse(
                tagChecks(client.macs.get(0), client.macs.get(1), frame),
                "a direction's tag does not pass for the other's");
    }

    private static boolean tagChecks(final FrameMac sending, final FrameMac receiving, final byte[] frame) {
        final FrameMac.Tagger tagger = sending.tagger();
        sending.start(tagger, frame.length);
        tagger.update(frame, 0, frame.length);
        final ByteBuffer tag = ByteBuffer.allocate(FrameMac.TAG_BYTES);
        tagger.finish(tag, 0);
        final FrameMac.Tagger checker = receiving.tagger();
        receiving.start(checker, frame.length);
        checker.update(frame, 0, frame.length);
        return checker.matches(tag.array(), 0);
    }

    /** With frames bare, both agree on it and the links get no keys. */
    @Test
    void shouldLinkWithBareFramesWhenBothSidesSaySo() {
        final Side client = new Side("client", SECRET, true, "", false);
        final Side server = new Side("server", SECRET, false, "", false);
        assertEquals(
                "hcpai",
                shuttle(client, server)
                        + shuttle(server, client)
                        + shuttle(client, server)
                        + shuttle(server, client)
                        + shuttle(client, server));
        assertTrue(client.linked.isSuccess());
        assertEquals(Arrays.asList(null, null), client.macs);
        assertEquals(Arrays.asList(null, null), server.macs);
    }

    @Test
    void shouldRefuseSidesThatDisagreeOnFrameAuthentication() {
        final Side client = new Side("client", SECRET, true, "", false);
        final Side server = new Side("server", SECRET, false);
        shuttle(client, server);
        assertEquals("c", shuttle(server, client), "the server says what it does, then hangs up");
        assertTrue(client.failure().contains("troupe.core.authenticateFrames"), client.failure());
        assertTrue(client.failure().contains("on at the peer and off here"), client.failure());
        client.assertRefused();
        server.assertRefused();
    }

    /**
     * The relay: a client that dials an address expecting one runtime, where another (or a relay to another)
     * answers. Its proof is bound to the runtime it expects, so the other refuses it; nothing is linked.
     */
    @Test
    void shouldLinkOnlyTheRuntimeTheClientExpects() {
        final Side client = new Side("client", SECRET, true, "expected", true);
        final Side other = new Side("other", SECRET, false);
        shuttle(client, other);
        shuttle(other, client);
        assertEquals("p", shuttle(client, other));
        other.assertRefused();
        assertEquals(List.of(), other.written(), "no acceptance");
        client.channel.close(); // as the socket does when the server hangs up
        assertTrue(client.failure().contains("not the runtime expected at that address"), client.failure());
    }

    @Test
    void shouldNotLinkAServerThatDoesNotKnowTheSecret() {
        final Side client = new Side("client", SECRET, true);
        final Side server = new Side("server", GUESS, false);
        shuttle(client, server);
        shuttle(server, client);
        shuttle(client, server);
        server.assertRefused();
        assertEquals(List.of(), server.written());
        client.channel.close(); // as the socket does when the server hangs up
        assertTrue(client.failure().contains("different deployment secret"), client.failure());
        client.assertRefused();
    }

    // --- A client written here, against our server ---

    /** Says hello to {@code server} and returns the nonce of its challenge. */
    private static byte[] helloFrom(final byte[] clientNonce, final Side server) {
        server.receive(hello(clientNonce));
        final List<byte[]> written = server.written();
        assertEquals(1, written.size());
        return nonceOfChallenge(written.get(0));
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
            final byte[] serverNonce = helloFrom(clientNonce, server);
            final Handshake h = new Handshake(secret);
            final ByteBuf proof = proof(h.proof('C', clientNonce, serverNonce, ON, ON, ""));
            server.receive(secret == SECRET ? proof : Unpooled.wrappedBuffer(proof, message()));
            if (secret == SECRET) {
                final List<byte[]> written = server.written();
                assertEquals(1, written.size());
                assertEquals(Handshake.ACCEPTED, written.get(0)[4]);
                assertTrue(mentions(written, "server"), "the server names itself once the client proved");
                assertTrue(server.links.isEmpty(), "not before the client names itself");
                server.receive(identified(
                        "client", h.proof('I', clientNonce, serverNonce, ON, ON, "server", "client", "host:1")));
                assertEquals(
                        List.of("client"),
                        server.links.stream().map(TcpLink::peerRuntimeId).toList());
            } else {
                assertEquals(List.of(), server.written(), "no acceptance");
                server.assertRefused();
            }
        }
    }

    /** A proof bound to the server's own id passes as well as one bound to none; one bound to another does not. */
    @Test
    void shouldAcceptAProofBoundToItsOwnIdAndRefuseOneBoundToAnother() {
        for (final String expected : List.of("server", "other")) {
            final Side server = new Side("server", SECRET, false);
            final byte[] clientNonce = Handshake.nonce();
            final byte[] serverNonce = helloFrom(clientNonce, server);
            server.receive(proof(new Handshake(SECRET).proof('C', clientNonce, serverNonce, ON, ON, expected)));
            if (expected.equals("server")) {
                assertEquals(1, server.written().size(), "accepted");
            } else {
                assertEquals(List.of(), server.written(), "no acceptance");
                server.assertRefused();
            }
        }
    }

    /** Without the role in the MAC, the server's own kind of proof, sent back, would pass. */
    @Test
    void shouldRefuseAProofWithTheServersRole() {
        final Side server = new Side("server", SECRET, false);
        final byte[] clientNonce = Handshake.nonce();
        final byte[] serverNonce = helloFrom(clientNonce, server);
        server.receive(proof(new Handshake(SECRET).proof('S', clientNonce, serverNonce, ON, ON, "")));
        server.assertRefused();
    }

    /** A client that proved the secret still cannot claim an id its identity's proof does not carry. */
    @Test
    void shouldRefuseAnIdentityWithoutItsProof() {
        final Side server = new Side("server", SECRET, false);
        final byte[] clientNonce = Handshake.nonce();
        final byte[] serverNonce = helloFrom(clientNonce, server);
        final Handshake h = new Handshake(SECRET);
        server.receive(proof(h.proof('C', clientNonce, serverNonce, ON, ON, "")));
        server.written();
        server.receive(
                identified("mallory", h.proof('I', clientNonce, serverNonce, ON, ON, "server", "client", "host:1")));
        server.assertRefused();
    }

    /** Ids and addresses reach log lines: one that could forge a line is refused, even with its proof. */
    @Test
    void shouldRefuseAnIdThatIsNotPrintable() {
        final String forged = "rt-1\nWARN forged log line";
        final Side server = new Side("server", SECRET, false);
        final byte[] clientNonce = Handshake.nonce();
        final byte[] serverNonce = helloFrom(clientNonce, server);
        final Handshake h = new Handshake(SECRET);
        server.receive(proof(h.proof('C', clientNonce, serverNonce, ON, ON, "")));
        server.written();
        server.receive(identified(forged, h.proof('I', clientNonce, serverNonce, ON, ON, "server", forged, "host:1")));
        server.assertRefused();

        final Side client = new Side("client", SECRET, true);
        final byte[] nonce = nonceOfHello(client.written().get(0));
        final byte[] challengeNonce = Handshake.nonce();
        client.receive(challenge(ON, challengeNonce));
        client.written();
        client.receive(accepted(forged, h.proof('S', nonce, challengeNonce, ON, ON, forged, "host:2")));
        assertTrue(client.failure().contains("malformed handshake field"), client.failure());
        client.assertRefused();
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
                Arguments.of("empty", frame(b -> {})),
                Arguments.of(
                        "no settings", frame(b -> b.writeByte(Handshake.HELLO).writeByte(Handshake.VERSION))),
                Arguments.of(
                        "short nonce",
                        frame(b -> b.writeByte(Handshake.HELLO)
                                .writeByte(Handshake.VERSION)
                                .writeByte(ON)
                                .writeBytes(new byte[10]))),
                Arguments.of(
                        "another version",
                        frame(b -> b.writeByte(Handshake.HELLO)
                                .writeByte(Handshake.VERSION - 1)
                                .writeByte(ON)
                                .writeBytes(nonce))),
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

    /** Takes the client through the challenge to its proof; returns the server nonce used. */
    private static byte[] challengeTo(final Side client) {
        final byte[] serverNonce = Handshake.nonce();
        client.receive(challenge(ON, serverNonce));
        assertEquals(1, client.written().size(), "the client's proof");
        return serverNonce;
    }

    @Test
    void shouldRefuseAServerWhoseProofHasTheClientsRole() {
        final Side client = new Side("client", SECRET, true);
        final byte[] clientNonce = helloOf(client);
        final byte[] serverNonce = challengeTo(client);
        client.receive(accepted(
                "server", new Handshake(SECRET).proof('C', clientNonce, serverNonce, ON, ON, "server", "host:2")));
        assertTrue(client.failure().contains("does not know the deployment secret"), client.failure());
        assertEquals(List.of(), client.written(), "no identity");
        client.assertRefused();
    }

    /** A proof for another server id is no proof: the ids are in the MAC. */
    @Test
    void shouldRefuseAServerThatClaimsAnotherIdThanItProved() {
        final Side client = new Side("client", SECRET, true);
        final byte[] clientNonce = helloOf(client);
        final byte[] serverNonce = challengeTo(client);
        client.receive(accepted(
                "impostor", new Handshake(SECRET).proof('S', clientNonce, serverNonce, ON, ON, "server", "host:2")));
        assertTrue(client.failure().contains("does not know the deployment secret"), client.failure());
        client.assertRefused();
    }

    /** A server that knows the secret but accepted a proof bound to another runtime is not the one dialled. */
    @Test
    void shouldRefuseAServerOtherThanTheOneExpected() {
        final Side client = new Side("client", SECRET, true, "expected", true);
        final byte[] clientNonce = helloOf(client);
        final byte[] serverNonce = challengeTo(client);
        client.receive(accepted(
                "other", new Handshake(SECRET).proof('S', clientNonce, serverNonce, ON, ON, "other", "host:2")));
        assertTrue(client.failure().contains("is other, not expected"), client.failure());
        assertEquals(List.of(), client.written(), "no identity");
        client.assertRefused();
    }

    @Test
    void shouldRefuseAnAcceptanceBeforeTheChallenge() {
        final Side client = new Side("client", SECRET, true);
        helloOf(client);
        client.receive(accepted("server", new byte[Handshake.MAC_BYTES]));
        assertTrue(client.failure().contains("did not answer with a challenge"), client.failure());
        client.assertRefused();
    }

    @Test
    void shouldRefuseAMessageInsteadOfTheAcceptance() {
        final Side client = new Side("client", SECRET, true);
        helloOf(client);
        challengeTo(client);
        client.receive(message());
        assertTrue(client.failure().contains("did not accept"), client.failure());
        client.assertRefused();
    }

    @Test
    void shouldRefuseAShortChallenge() {
        final Side client = new Side("client", SECRET, true);
        helloOf(client);
        client.receive(frame(b -> b.writeByte(Handshake.CHALLENGE).writeByte(ON).writeBytes(new byte[10])));
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

    /** Anyone who reaches the port can make refusals as fast as connections open: a few a second are logged. */
    @Test
    void refusalsAreLoggedAFewASecondTheOthersCounted() {
        final TcpTransport.RefusalBudget budget = new TcpTransport.RefusalBudget();
        int logged = 0;
        for (int i = 0; i < 1000; i++) {
            logged += budget.tryAcquire(7) ? 1 : 0;
        }
        assertEquals(TcpTransport.REFUSALS_LOGGED_PER_SECOND, logged);
        assertTrue(budget.tryAcquire(8), "the next second has its own");
    }
}
