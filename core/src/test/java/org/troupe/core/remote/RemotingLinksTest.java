package org.troupe.core.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;
import org.troupe.core.transport.Link;
import org.troupe.core.transport.LinkHandler;
import org.troupe.core.transport.Transport;
import org.troupe.serialization.CodecSession;
import org.troupe.serialization.SerializationConfig;
import org.troupe.serialization.TroupeOutput;

/**
 * A runtime with more than one link to the same other runtime: it reaches it under another name than the one it
 * announced (a host name for its address, or 0.0.0.0), or both connect to each other at once. Endpoint frames are
 * promised to arrive in the order they were sent and never over a new link once one was lost; the links here are
 * {@link PeerTest.FakeLink}s, all to runtime "rt-remote" announcing "10.0.0.9:7000".
 */
class RemotingLinksTest {
    private static final String PEER_ID = "rt-remote";
    private static final String PEER_ADDRESS = "10.0.0.9:7000";

    private final List<PeerTest.FakeLink> connected = new ArrayList<>();
    private Remoting remoting;
    private final EndpointTable endpoints = new EndpointTable("rt-local", () -> remoting, () -> "127.0.0.1:7001");
    private final List<String> told = new ArrayList<>();
    private final List<Byte> received = new ArrayList<>();
    private Endpoint me;
    private final EndpointAddress there = new EndpointAddress(PEER_ID, PEER_ADDRESS, 1);

    /** Connects to the one other runtime, whatever name it is dialed by. */
    final class OnePeer implements Transport {
        @Override
        public String listen(final LinkHandler handler) {
            return "127.0.0.1:7001";
        }

        @Override
        public Link connect(
                final String address,
                final String expectedRuntimeId,
                final LinkHandler handler,
                final Duration timeout) {
            final PeerTest.FakeLink l = new PeerTest.FakeLink();
            l.handler = handler;
            connected.add(l);
            return l;
        }

        @Override
        public void close() {}
    }

    @BeforeEach
    void start() {
        remoting = new Remoting(new PeerTest.NoObjects(), new OnePeer(), endpoints);
        me = endpoints.open("me", new EndpointHandler() {
            @Override
            public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
                received.add(payload.get(0));
            }

            @Override
            public void runtimeLost(final String runtimeId, final String reason) {
                told.add(runtimeId);
            }
        });
    }

    private static PeerTest.FakeLink accepted() {
        return new PeerTest.FakeLink();
    }

    private void open(final PeerTest.FakeLink l) {
        l.handler = remoting;
        remoting.opened(l);
    }

    private void send(final int value) {
        me.send(there, ByteBuffer.allocate(0), ByteBuffer.wrap(new byte[] {(byte) value}), false);
    }

    /** An endpoint frame from the peer's endpoint 1 to ours, {@code me}, carrying {@code value}. */
    private void arrives(final PeerTest.FakeLink over, final int value) {
        final byte[] f = ByteBuffer.allocate(Frames.ENDPOINT_PREFIX + 1)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put(Frames.ENDPOINT)
                .putLong(me.address().id())
                .putLong(1)
                .putShort((short) 0)
                .put((byte) value)
                .array();
        remoting.received(over, f, 0, f.length);
    }

    /** A REGISTER_NODE frame offering node {@code name}, as the runtime at the other end of {@code over} sends it. */
    private void offers(final PeerTest.FakeLink over, final CodecSession its, final String name) {
        final TroupeOutput o = its.encoder().newOutput();
        o.writeByte(Frames.REGISTER_NODE);
        o.writeLong(0);
        its.encoder().encode(name, o);
        remoting.received(over, o.getBuffer(), 0, o.position());
    }

    @Test
    void shouldKeepANodesNameWithTheRuntimeThatOfferedItWhileThatRuntimeIsThere() {
        final PeerTest.FakeLink a = accepted();
        a.id = "rt-a";
        final PeerTest.FakeLink b = accepted();
        b.id = "rt-b";
        open(a);
        open(b);
        final CodecSession fromA = new CodecSession(SerializationConfig.defaults());
        final CodecSession fromB = new CodecSession(SerializationConfig.defaults());
        offers(a, fromA, "worker-1");
        offers(b, fromB, "worker-1");
        assertEquals(
                "rt-a",
                remoting.awaitNode("worker-1", Duration.ofMillis(100)).runtimeId(),
                "another runtime cannot take a node's name and with it the objects made there");
        a.close("gone");
        offers(b, fromB, "worker-1");
        assertEquals(
                "rt-b",
                remoting.awaitNode("worker-1", Duration.ofMillis(100)).runtimeId(),
                "the name is free again once its runtime is gone");
    }

    /** Frames of one endpoint to one runtime go over one link: two links read at once do not keep their order. */
    @Test
    void shouldSendAnEndpointsFramesOverTheLinkTheyStartedOnWhenTheRuntimeConnectsAgain() {
        final PeerTest.FakeLink first = accepted();
        open(first);
        send(1);
        final PeerTest.FakeLink second = accepted(); // the peer dialed us as well
        open(second);
        send(2);
        assertEquals(2, first.sent.size() + second.sent.size());
        assertEquals(
                2,
                first.sent.size(),
                "frames 1 and 2 of one endpoint went over different links (" + first.sent.size() + " over the first, "
                        + second.sent.size() + " over the second)");
    }

    /** Dialing the runtime by another name than the one it announced must not open a link at every lookup. */
    @Test
    void shouldNotOpenALinkAtEveryLookupOfARuntimeDialedByAnotherName() {
        assertEquals(PEER_ID, remoting.link(PEER_ADDRESS));
        for (int i = 0; i < 3; i++) {
            assertEquals(PEER_ID, remoting.link("peer-host.example:7000"));
        }
        assertEquals(
                1,
                connected.stream().filter(Link::isOpen).count(),
                "open links to " + PEER_ID + " (of " + connected.size() + " made)");
    }

    /**
     * Once an endpoint is told that a runtime is lost, nothing more comes from it: here, a second link to it stays
     * open when the one the runtime was reached through closes, and its frames still arrive.
     */
    @Test
    void shouldHandNoFrameFromARuntimeAfterTellingEndpointsItIsLost() {
        final PeerTest.FakeLink first = accepted();
        open(first);
        final PeerTest.FakeLink second = accepted();
        open(second);
        arrives(first, 1);
        second.close("reset by peer");
        arrives(first, 2);
        assertTrue(
                told.isEmpty() || received.equals(List.of((byte) 1)),
                "told that " + told + " is lost, then" + " handed " + received + " from it");
    }

    /**
     * A runtime whose link was lost stays lost to endpoints: frames to it are not sent over a new link, and none
     * from it are handed on. The new link here is made by something else than an endpoint (a call on one of its
     * active objects, a lookup, or the runtime dialing us again), as endpointPeer alone refuses to make one.
     */
    @Test
    void shouldNotSendEndpointFramesOverALinkMadeByOthersAfterTheRuntimeWasLost() {
        assertEquals(PEER_ID, remoting.link(PEER_ADDRESS));
        send(1);
        connected.getFirst().close("nothing heard from it for 4000 ms");
        assertEquals(List.of(PEER_ID), told);
        assertThrows(PeerFailedException.class, () -> send(2), "a lost runtime's link is not replaced");
        assertEquals(PEER_ID, remoting.link(PEER_ADDRESS)); // an active object's call there links again
        final RuntimeException later = assertThrows(
                RuntimeException.class,
                () -> send(3),
                () -> "frame 3 went over the new link ("
                        + connected.getLast().sent.size() + " frames sent over it)");
        assertInstanceOf(PeerFailedException.class, later);
        arrives(connected.getLast(), 4);
        assertEquals(List.of(), received, "frames from a runtime the endpoint was told is lost");
    }

    /** A runtime announced at a loopback address that cannot be reached may be on another host: said, with the fix. */
    @Test
    void shouldSayThatALoopbackAddressReachesOnlyThisHostWhenNothingAnswersThere() {
        final Transport refusing = new Transport() {
            @Override
            public String listen(final LinkHandler handler) {
                return "127.0.0.1:7001";
            }

            @Override
            public Link connect(
                    final String address,
                    final String expectedRuntimeId,
                    final LinkHandler handler,
                    final Duration timeout) {
                throw new IllegalStateException(
                        "Cannot connect to " + address + ": Connection refused",
                        new ConnectException("Connection refused"));
            }

            @Override
            public void close() {}
        };
        final Remoting r = new Remoting(new PeerTest.NoObjects(), refusing, endpoints);
        try {
            final PeerFailedException loopback =
                    assertThrows(PeerFailedException.class, () -> r.link("127.0.0.1:4000"));
            assertTrue(
                    loopback.getMessage()
                            .endsWith(
                                    "Connection refused; 127.0.0.1 is a loopback address, which"
                                            + " reaches only this host: if that runtime runs on another host, start it with"
                                            + " troupe.core.bindAddress=<an address of its host that the others reach> (or 0.0.0.0)"),
                    loopback.getMessage());
            assertInstanceOf(ConnectException.class, loopback.getCause());
            final PeerFailedException elsewhere =
                    assertThrows(PeerFailedException.class, () -> r.link("10.0.0.9:4000"));
            assertTrue(elsewhere.getMessage().endsWith("Connection refused"), elsewhere.getMessage());
        } finally {
            r.close();
        }
    }
}
