package org.troupe.mpi.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;

/**
 * Hybrid placement: two "JVMs" of two ranks each (ranks 0 and 1 in the first, 2 and 3 in the second), each rank with
 * an endpoint of its own, in memory as in {@link EndpointFabricTest}: a message between ranks of one JVM goes to the
 * mailbox without a frame, one between JVMs as a frame to the receiver's endpoint.
 */
@Timeout(30)
class HybridFabricTest {
    private static final int CTX = 4;
    private static final int SIZE = 4;

    /** The frames sent, in order: type and the rank whose endpoint they came to. */
    private final List<String> frames = new ArrayList<>();

    private final Map<EndpointAddress, Integer> rankAt = new ConcurrentHashMap<>();
    private final EndpointAddress[] addresses = new EndpointAddress[SIZE];
    private final EndpointFabric[] links = new EndpointFabric[2];
    private final Fabric[] fabrics = new Fabric[2];

    HybridFabricTest() {
        for (int r = 0; r < SIZE; r++) {
            addresses[r] = new EndpointAddress("runtime-" + r / 2, "", r + 1); // an endpoint is its runtime and id
            rankAt.put(addresses[r], r);
        }
        for (int j = 0; j < 2; j++) {
            final int[] ranks = {2 * j, 2 * j + 1};
            links[j] = new EndpointFabric(ranks, SIZE, 64L << 20);
            fabrics[j] = new Fabric(SIZE, ranks, links[j]);
            links[j].attach(fabrics[j]);
            for (final int r : ranks) {
                links[j].connect(r, endpoint(addresses[r]));
            }
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
                final int dest = rankAt.get(to);
                frames.add(header.get(header.position()) + "->" + dest);
                links[dest / 2].received(dest, self, header.asReadOnlyBuffer(), payload.asReadOnlyBuffer());
            }

            @Override
            public void close() {}
        };
    }

    @Test
    void aMessageBetweenRanksOfOneJvmGoesToTheMailboxWithoutAFrame() {
        final Message m = new Message(CTX, 0, 7, Kind.INT, new int[] {1, 2, 3}, 0, 3, new Operation(), null);
        fabrics[0].deliver(0, 1, m, true); // kept in rank 1's mailbox as a copy
        final Receive r = new Receive(CTX, 0, 7, Kind.INT, new int[3], 0, 3);
        fabrics[0].post(1, r);
        assertTrue(r.operation().isDone());
        assertArrayEquals(new int[] {1, 2, 3}, (int[]) r.buffer);
        assertEquals(List.of(), frames);
    }

    @Test
    void aMessageToARankOfTheOtherJvmComesToThatRanksEndpointAndMailbox() {
        final Message m = new Message(CTX, 1, 7, Kind.INT, new int[] {5}, 0, 1, new Operation(), null);
        fabrics[0].deliver(1, 3, m, true);
        assertNull(fabrics[1].peek(2, CTX, 1, 7, null), "not for rank 2, which shares rank 3's JVM");
        final Receive r = new Receive(CTX, 1, 7, Kind.INT, new int[1], 0, 1);
        fabrics[1].post(3, r);
        assertTrue(r.operation().isDone());
        assertEquals(5, ((int[]) r.buffer)[0]);
        assertEquals(List.of(FabricFrame.EAGER + "->3"), frames);
    }

    @Test
    void aLargeMessageBetweenJvmsGoesByRendezvousBetweenTheTwoRanksEndpoints() {
        final int n = 1000;
        final int[] data = new int[n];
        for (int i = 0; i < n; i++) {
            data[i] = i;
        }
        final Message m = new Message(CTX, 1, 7, Kind.INT, data, 0, n, new Operation(), null);
        fabrics[0].deliver(1, 2, m, false);
        final Receive r = new Receive(CTX, 1, 7, Kind.INT, new int[n], 0, n);
        fabrics[1].post(2, r);
        assertFalse(r.operation().isDone(), "cleared: its data waits for a wait of its sender's JVM");
        fabrics[0].progress(); // as any wait or test of a rank of that JVM does
        r.operation().await(fabrics[1]);
        assertTrue(m.send.isDone());
        assertArrayEquals(data, (int[]) r.buffer);
        assertEquals(List.of(FabricFrame.RTS + "->2", FabricFrame.CTS + "->1", FabricFrame.DATA + "->2"), frames);
    }

    @Test
    void eagerCreditGoesBackToTheSendingRankForTheReceivingRank() {
        final int bytes = 64 * 1024;
        while (fabrics[0].takeEagerCredit(1, 3, bytes)) {
            // as standard sends of rank 1 to rank 3 take it
        }
        assertTrue(fabrics[0].takeEagerCredit(0, 3, bytes), "each pair of ranks has its own credit");
        final long cost = Fabric.eagerCost(bytes);
        final int perStep = (int) ((EndpointFabric.CREDIT_STEP_BYTES + cost - 1) / cost);
        for (int i = 0; i < perStep; i++) {
            fabrics[0].deliver(
                    1, 3, new Message(CTX, 1, 7, Kind.BYTE, new byte[bytes], 0, bytes, new Operation(), null), true);
            fabrics[1].post(3, new Receive(CTX, 1, 7, Kind.BYTE, new byte[bytes], 0, bytes));
        }
        assertEquals(FabricFrame.CREDIT + "->1", frames.get(frames.size() - 1));
        assertTrue(fabrics[0].takeEagerCredit(1, 3, bytes), "a step of credit came back to rank 1 for rank 3");
    }

    @Test
    void theLossOfAJvmNamesAllItsRanksThatHadNotFinished() {
        links[1].runtimeLost("runtime-0", "its link ended");
        assertTrue(fabrics[1].abortedBecause().contains("the JVM of ranks 0, 1 was lost"), fabrics[1].abortedBecause());
    }

    @Test
    void aJvmWhoseRanksAllFinishedMayEnd() {
        fabrics[1].finalized(2);
        links[0].runtimeLost("runtime-1", "its JVM ended");
        assertTrue(fabrics[0].abortedBecause().contains("the JVM of rank 3 was lost"), fabrics[0].abortedBecause());
    }

    @Test
    void aJvmWhoseRanksHaveAllFinishedEndsWithoutAborting() {
        fabrics[1].finalized(2);
        fabrics[1].finalized(3);
        links[0].runtimeLost("runtime-1", "its JVM ended");
        assertFalse(fabrics[0].isAborted());
    }

    @Test
    void aJvmsRanksMustBeConsecutive() {
        assertThrows(IllegalArgumentException.class, () -> new Fabric(SIZE, new int[] {0, 2}, links[0]));
    }
}
