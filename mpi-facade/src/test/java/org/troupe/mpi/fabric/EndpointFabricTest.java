package org.troupe.mpi.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;

/**
 * Two ranks, each the only one of its "JVM", whose {@link EndpointFabric}s exchange frames through endpoints in
 * memory: a frame is handled on the sender's thread, inside its send, as a frame to an endpoint of the same runtime
 * is. No sockets, no threads.
 */
@Timeout(30)
class EndpointFabricTest {
    private static final int CTX = 4;
    private static final long MAX_FRAME = 64L << 20;

    /** The endpoints in memory, by address. */
    private final Map<EndpointAddress, EndpointHandler> handlers = new ConcurrentHashMap<>();
    /** The frame types sent, in order, by either rank. */
    private final List<Byte> frames = new ArrayList<>();

    private final EndpointAddress[] addresses = {
        new EndpointAddress("runtime-0", "", 1), new EndpointAddress("runtime-1", "", 1)
    };
    private final EndpointFabric[] links = new EndpointFabric[2];
    private final Fabric[] fabrics = new Fabric[2];

    EndpointFabricTest() {
        for (int r = 0; r < 2; r++) {
            links[r] = new EndpointFabric(r, 2, MAX_FRAME);
            fabrics[r] = new Fabric(2, r, links[r]);
            links[r].attach(fabrics[r]);
            links[r].connect(endpoint(addresses[r]));
            handlers.put(addresses[r], links[r]);
        }
        for (final EndpointFabric link : links) {
            link.ranks(addresses);
        }
    }

    private Endpoint endpoint(final EndpointAddress self) {
        return new Endpoint() {
            @Override
            public EndpointAddress address() {
                return self;
            }

            @Override
            public void send(
                    final EndpointAddress to, final ByteBuffer header, final ByteBuffer payload, final boolean batch) {
                frames.add(header.get(header.position()));
                handlers.get(to).received(self, header.asReadOnlyBuffer(), payload.asReadOnlyBuffer());
            }

            @Override
            public void close() {}
        };
    }

    private static int[] ints(final int n) {
        final int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i * 31 + 7;
        }
        return a;
    }

    @Test
    void anEagerMessageWaitsAtTheReceiverAsACopyAndItsSendCompletesAtOnce() {
        final int[] sent = ints(10);
        final Message m = new Message(CTX, 0, 7, Kind.INT, sent, 0, 10, new Operation(), null);
        assertNull(fabrics[0].deliver(0, 1, m, true), "its bytes are in the other JVM: it cannot be withdrawn");
        assertTrue(m.send.isDone());
        sent[0] = -1;
        assertNotNull(fabrics[1].peek(1, CTX, 0, 7, null), "in the receiver's unexpected queue");
        final Receive r = new Receive(CTX, 0, 7, Kind.INT, new int[10], 0, 10);
        fabrics[1].post(1, r);
        assertTrue(r.operation().isDone());
        assertArrayEquals(ints(10), (int[]) r.buffer);
        assertEquals(List.of(FabricFrame.EAGER), frames);
    }

    @Test
    void aLargeMessageGoesByRendezvousOnlyOnceAReceiveMatchesItInPieces() {
        final int n = 3 * EndpointFabric.DATA_PIECE_BYTES / Integer.BYTES + 5; // four pieces
        final Message m = new Message(CTX, 0, 7, Kind.INT, ints(n), 0, n, new Operation(), null);
        assertSame(m, fabrics[0].deliver(0, 1, m, false), "it may be withdrawn until a receive matches it");
        assertFalse(m.send.isDone());
        assertEquals(List.of(FabricFrame.RTS), frames, "only the envelope has gone");
        final Receive r = new Receive(CTX, Fabric.ANY_SOURCE, Fabric.ANY_TAG, Kind.INT, new int[n + 1], 1, n);
        fabrics[1].post(1, r);
        assertEquals(List.of(FabricFrame.RTS, FabricFrame.CTS), frames, "cleared: its data waits for its sender");
        assertFalse(m.send.isDone());
        m.send.await(fabrics[0]); // the sender's wait sends it, as MPI's progress rule has it
        r.operation().await(fabrics[1]);
        assertEquals(n, r.operation().count());
        final int[] expected = new int[n + 1];
        System.arraycopy(ints(n), 0, expected, 1, n);
        assertArrayEquals(expected, (int[]) r.buffer);
        assertEquals(
                List.of(
                        FabricFrame.RTS,
                        FabricFrame.CTS,
                        FabricFrame.DATA,
                        FabricFrame.DATA,
                        FabricFrame.DATA,
                        FabricFrame.DATA),
                frames);
    }

    /**
     * Another runtime of the job (here, one that is no rank's) forges frames: a clearance of rank 0's rendezvous
     * message, to be sent its data; an eager message and a finish in rank 0's name. Each is dropped, as it did not
     * come from the endpoint its send went to or of the rank it names; the genuine exchange goes on.
     */
    @Test
    void framesOfAnotherEndpointThanTheOneTheyAnswerOrNameAreDropped() {
        final EndpointAddress forger = new EndpointAddress("runtime-2", "", 1);
        final List<ByteBuffer> toForger = new ArrayList<>();
        handlers.put(forger, (from, header, payload) -> toForger.add(header));
        final int n = 100;
        final Message m = new Message(CTX, 0, 7, Kind.INT, ints(n), 0, n, new Operation(), null);
        fabrics[0].deliver(0, 1, m, false);
        final long sendId = 1; // send ids count from 1: a forger can guess them
        links[0].received(
                forger, FabricFrame.header(FabricFrame.CTS, 0, 1, 0, Kind.BYTE, 0, sendId, 1), ByteBuffer.allocate(0));
        fabrics[0].progress();
        assertTrue(toForger.isEmpty(), "no data went to the forger");
        final int[] forgedInts = {666};
        links[1].received(
                forger,
                FabricFrame.header(FabricFrame.EAGER, CTX, 0, 7, Kind.INT, 1, 0, 0),
                Wire.toBytes(Kind.INT, forgedInts, 0, 1));
        links[1].received(
                forger, FabricFrame.header(FabricFrame.BYE, 0, 0, 0, Kind.BYTE, 0, 0, 0), ByteBuffer.allocate(0));
        final Receive r = new Receive(CTX, 0, 7, Kind.INT, new int[n], 0, n);
        fabrics[1].post(1, r);
        m.send.await(fabrics[0]);
        r.operation().await(fabrics[1]);
        assertArrayEquals(ints(n), (int[]) r.buffer, "the genuine message, not the forged one, was received");
        assertNull(fabrics[1].peek(1, CTX, 0, 7, null), "and the forged one is nowhere");
        assertFalse(fabrics[1].isAborted());
    }

    /**
     * A rank of another JVM names another rank of the communicator as the source of its messages (eager or
     * rendezvous): no receive or probe on that communicator takes them, posted before or after they came; the
     * genuine ones still come.
     */
    @Test
    void aMessageNamingAnotherRankAsItsSourceIsTakenByNoReceive() {
        final int[] members = {0, 1}; // the communicator's world ranks, by rank in it
        forgeFromRank0(FabricFrame.EAGER, 1);
        forgeFromRank0(FabricFrame.RTS, 2);
        assertNull(fabrics[1].peek(1, CTX, Fabric.ANY_SOURCE, 7, members), "no probe sees them");
        final Receive posted = new Receive(CTX, 1, 7, Kind.INT, new int[1], 0, 1).from(members);
        fabrics[1].post(1, posted);
        forgeFromRank0(FabricFrame.EAGER, 3); // while a receive for rank 1 waits
        assertFalse(posted.operation().isDone(), "the receive for rank 1 took nothing of rank 0's");
        assertTrue(frames.contains(FabricFrame.REFUSED), "the rendezvous sender was refused");

        final Message genuine = new Message(CTX, 0, 7, Kind.INT, ints(1), 0, 1, new Operation(), null);
        fabrics[0].deliver(0, 1, genuine, true);
        final Receive any = new Receive(CTX, Fabric.ANY_SOURCE, 7, Kind.INT, new int[1], 0, 1).from(members);
        fabrics[1].post(1, any);
        any.operation().await(fabrics[1]);
        assertArrayEquals(ints(1), (int[]) any.buffer, "rank 0's own message came");
        assertEquals(0, any.operation().source());
        assertFalse(fabrics[1].isAborted());
    }

    /**
     * Eager messages sent without credit (as buffered sends go) that no receive takes: a JVM holds them up to its
     * bound, those taken free their room, and one more past it ends the job, saying why, rather than the heap.
     */
    @Test
    void eagerMessagesNoReceiveTookPastTheBoundEndTheJob() {
        final int n = 10;
        links[1].holdingAtMost(3 * Fabric.eagerCost(4L * n));
        for (int i = 0; i < 3; i++) {
            fabrics[0].deliver(0, 1, new Message(CTX, 0, 7, Kind.INT, ints(n), 0, n, null, null), true);
        }
        final Receive r = new Receive(CTX, 0, 7, Kind.INT, new int[n], 0, n);
        fabrics[1].post(1, r);
        assertTrue(r.operation().isDone(), "a receive took one");
        fabrics[0].deliver(0, 1, new Message(CTX, 0, 7, Kind.INT, ints(n), 0, n, null, null), true);
        assertFalse(fabrics[1].isAborted(), "its room was free again");
        fabrics[0].deliver(0, 1, new Message(CTX, 0, 7, Kind.INT, ints(n), 0, n, null, null), true);
        assertTrue(fabrics[1].isAborted(), "a fourth held is past the bound");
        assertTrue(fabrics[1].abortedBecause().contains("no receive took"), fabrics[1].abortedBecause());
        assertTrue(fabrics[0].isAborted(), "the sender's JVM hears of it: " + frames);
    }

    /** Rank 0's endpoint sends rank 1 a message of one int that names rank 1 as its source. */
    private void forgeFromRank0(final byte type, final long sendId) {
        final boolean eager = type == FabricFrame.EAGER;
        links[1].received(
                addresses[0],
                FabricFrame.header(type, CTX, 1, 7, Kind.INT, 1, eager ? 0 : sendId, 0),
                eager ? Wire.toBytes(Kind.INT, new int[] {666}, 0, 1) : ByteBuffer.allocate(0));
    }

    @Test
    void aRendezvousSendIsCancelledWhileNoReceiveHasMatchedIt() {
        final Message m = new Message(CTX, 0, 7, Kind.INT, ints(4), 0, 4, new Operation(), null);
        fabrics[0].deliver(0, 1, m, false);
        assertFalse(fabrics[0].cancel(1, m), "the receiver withdraws it, and says so by a frame");
        assertTrue(m.send.isCancelled());
        assertNull(fabrics[1].peek(1, CTX, 0, 7, null), "withdrawn from the receiver's queue");
        assertEquals(List.of(FabricFrame.RTS, FabricFrame.CANCEL, FabricFrame.CANCELLED), frames);
    }

    @Test
    void aRendezvousMessageTooLargeForItsReceiveEndsTheSendWithoutData() {
        final Message m = new Message(CTX, 0, 7, Kind.INT, ints(4), 0, 4, new Operation(), null);
        fabrics[0].deliver(0, 1, m, false);
        final Receive r = new Receive(CTX, 0, 7, Kind.INT, new int[2], 0, 2);
        fabrics[1].post(1, r);
        assertTrue(m.send.isDone());
        assertFalse(m.send.isCancelled());
        assertEquals(List.of(FabricFrame.RTS, FabricFrame.REFUSED), frames);
    }

    @Test
    void eagerCreditComesBackByFrameOnceReceivesHaveTakenAStepOfIt() {
        final int bytes = 64 * 1024;
        int taken = 0;
        while (fabrics[0].takeEagerCredit(0, 1, bytes)) { // as a standard send takes it for each eager message
            taken++;
        }
        final long cost = Fabric.eagerCost(bytes);
        final int perStep = (int) ((EndpointFabric.CREDIT_STEP_BYTES + cost - 1) / cost);
        for (int i = 0; i < perStep; i++) {
            assertFalse(fabrics[0].takeEagerCredit(0, 1, bytes), "no credit back before message " + i + " is taken");
            fabrics[0].deliver(
                    0, 1, new Message(CTX, 0, 7, Kind.BYTE, new byte[bytes], 0, bytes, new Operation(), null), true);
            fabrics[1].post(1, new Receive(CTX, 0, 7, Kind.BYTE, new byte[bytes], 0, bytes));
        }
        assertTrue(taken > perStep, "the credit covers more than a step");
        assertTrue(fabrics[0].takeEagerCredit(0, 1, bytes), "a step of credit came back");
        assertEquals(FabricFrame.CREDIT, frames.get(frames.size() - 1));
    }

    @Test
    void theLossOfARanksJvmAbortsTheJobUnlessTheRankHadFinished() {
        links[1].runtimeLost("runtime-0", "its link ended");
        assertTrue(fabrics[1].isAborted());
        assertTrue(fabrics[1].abortedBecause().contains("rank 0"), fabrics[1].abortedBecause());

        links[1].finished(1); // rank 1 tells rank 0 it has finished
        links[0].runtimeLost("runtime-1", "its JVM ended");
        assertFalse(fabrics[0].isAborted(), "a finished rank's JVM may end");
    }

    @Test
    void anAbortByOneRankEndsTheOthersJob() {
        fabrics[0].abortJob("rank 0 called Abort(3)");
        assertEquals("rank 0 called Abort(3)", fabrics[1].abortedBecause());
    }

    /**
     * Before the program runs, the JVM of the lower rank links to the other's with a LINKED frame (its send opens
     * the link) and waits for the answer, which the other sends once dialled; a JVM that never links costs a wait of
     * the timeout, no more.
     */
    @Test
    void linkingAheadTheLowerRankDialsAndTheHigherAnswers() throws Exception {
        final Thread higher = Thread.ofPlatform().start(() -> links[1].linkAhead(Duration.ofSeconds(20)));
        higher.join(200);
        assertTrue(higher.isAlive(), "rank 1 waits for rank 0's JVM to dial");
        assertEquals(List.of(), frames, "rank 1 sent nothing: rank 0's JVM dials");
        final Thread lower = Thread.ofPlatform().start(() -> links[0].linkAhead(Duration.ofSeconds(20)));
        lower.join(10_000);
        higher.join(10_000);
        assertFalse(lower.isAlive() || higher.isAlive(), "rank 0 dialled, rank 1 answered: both went on");
        assertEquals(List.of(FabricFrame.LINKED, FabricFrame.LINKED), frames);

        new EndpointFabricTest().links[0].linkAhead(Duration.ofMillis(300)); // nobody answers: it returns all the same
    }

    @Test
    void largeJobsLinkAheadOnlyToRingAndHypercubeNeighbours() {
        assertTrue(EndpointFabric.neighbours(0, 1, 100) && EndpointFabric.neighbours(0, 2, 100));
        assertTrue(EndpointFabric.neighbours(0, 99, 100) && EndpointFabric.neighbours(0, 98, 100), "around the ring");
        assertTrue(EndpointFabric.neighbours(5, 5 ^ 64, 100), "across the hypercube");
        assertFalse(EndpointFabric.neighbours(0, 3, 100));
        assertFalse(EndpointFabric.neighbours(10, 50, 100));
        for (int a = 0; a < 100; a++) {
            int count = 0;
            for (int b = 0; b < 100; b++) {
                assertEquals(EndpointFabric.neighbours(a, b, 100), EndpointFabric.neighbours(b, a, 100), a + ", " + b);
                count += a != b && EndpointFabric.neighbours(a, b, 100) ? 1 : 0;
            }
            assertTrue(count <= 4 + 7, "JVM " + a + " links ahead to " + count + " others");
        }
    }
}
