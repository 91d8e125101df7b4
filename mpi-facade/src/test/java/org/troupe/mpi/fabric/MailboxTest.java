package org.troupe.mpi.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The matching engine of one rank, without threads unless a test waits. */
@Timeout(30)
class MailboxTest {
    private static final int CTX = 4;
    private final Mailbox mailbox = new Mailbox();

    private static Message message(final int source, final int tag, final int... data) {
        return new Message(CTX, source, tag, Kind.INT, data, 0, data.length, new Operation(), null);
    }

    private static Receive receive(final int source, final int tag, final int capacity) {
        return new Receive(CTX, source, tag, Kind.INT, new int[capacity], 0, capacity);
    }

    private static int[] data(final Receive r) {
        return Arrays.copyOf((int[]) r.buffer, r.operation().count());
    }

    @Test
    void messagesOfOneSourceAndTagAreTakenInTheOrderTheyCame() {
        for (int i = 1; i <= 3; i++) {
            mailbox.deliver(message(1, 7, i), true);
        }
        for (int i = 1; i <= 3; i++) {
            final Receive r = receive(1, 7, 1);
            mailbox.post(r);
            assertTrue(r.operation().isDone());
            assertArrayEquals(new int[] {i}, data(r), "receive " + i);
        }
    }

    @Test
    void postedReceivesAreMatchedInTheOrderTheyWerePosted() {
        final Receive first = receive(Fabric.ANY_SOURCE, 7, 1);
        final Receive second = receive(1, 7, 1);
        mailbox.post(first);
        mailbox.post(second);
        assertNull(mailbox.deliver(message(1, 7, 10), false), "matched at once");
        assertTrue(first.operation().isDone());
        assertFalse(second.operation().isDone());
        mailbox.deliver(message(1, 7, 20), false);
        assertArrayEquals(new int[] {10}, data(first));
        assertArrayEquals(new int[] {20}, data(second));
    }

    @Test
    void aReceiveForAnySourceTakesTheOldestMessageOfAnySource() {
        mailbox.deliver(message(2, 7, 2), true);
        mailbox.deliver(message(1, 7, 1), true);
        final Receive r = receive(Fabric.ANY_SOURCE, 7, 1);
        mailbox.post(r);
        assertEquals(2, r.operation().source());
        assertArrayEquals(new int[] {2}, data(r));
    }

    @Test
    void aReceiveForOneTagPassesOverOthersAndAnyTagTakesTheOldest() {
        mailbox.deliver(message(1, 5, 5), true);
        mailbox.deliver(message(1, 6, 6), true);
        mailbox.deliver(message(1, 5, 55), true);
        final Receive six = receive(1, 6, 1);
        mailbox.post(six);
        assertArrayEquals(new int[] {6}, data(six));
        final Receive any = receive(1, Fabric.ANY_TAG, 1);
        mailbox.post(any);
        assertEquals(5, any.operation().tag());
        assertArrayEquals(new int[] {5}, data(any));
    }

    @Test
    void aMessageOfAnotherContextMatchesNoReceiveEvenWithWildcards() {
        mailbox.deliver(new Message(CTX + 1, 1, 7, Kind.INT, new int[] {1}, 0, 1, new Operation(), null), true);
        final Receive r = receive(Fabric.ANY_SOURCE, Fabric.ANY_TAG, 1);
        mailbox.post(r);
        assertFalse(r.operation().isDone());
        assertNull(mailbox.peek(CTX, Fabric.ANY_SOURCE, Fabric.ANY_TAG, null));
        assertNotNull(mailbox.peek(CTX + 1, 1, 7, null));
    }

    @Test
    void anEagerMessageIsKeptAsACopyAndItsSendCompletesAtOnce() {
        final int[] sent = {1, 2, 3};
        final Message m = message(1, 7, sent);
        final Message kept = mailbox.deliver(m, true);
        assertNotSame(m, kept);
        assertTrue(m.send.isDone(), "an eager send completes when its message is kept");
        sent[0] = 99; // the sender's buffer is its own again
        final Receive r = receive(1, 7, 3);
        mailbox.post(r);
        assertArrayEquals(new int[] {1, 2, 3}, data(r));
    }

    @Test
    void aRendezvousMessageWaitsForItsReceiveAndIsCopiedFromTheSendersBufferThen() {
        final int[] sent = {1, 2, 3};
        final Message m = message(1, 7, sent);
        assertSame(m, mailbox.deliver(m, false), "kept as it is");
        assertFalse(m.send.isDone(), "a rendezvous send waits for its receive");
        sent[0] = 4;
        final Receive r = receive(1, 7, 3);
        mailbox.post(r);
        assertTrue(m.send.isDone());
        assertEquals(3, m.send.count());
        assertArrayEquals(new int[] {4, 2, 3}, data(r));
    }

    @Test
    void peekLeavesTheMessageForTheReceive() {
        mailbox.deliver(message(3, 8, 1, 2), true);
        final Message seen = mailbox.peek(CTX, Fabric.ANY_SOURCE, Fabric.ANY_TAG, null);
        assertEquals(3, seen.source());
        assertEquals(8, seen.tag());
        assertEquals(2, seen.count());
        final Receive r = receive(3, 8, 2);
        mailbox.post(r);
        assertArrayEquals(new int[] {1, 2}, data(r));
        assertNull(mailbox.peek(CTX, Fabric.ANY_SOURCE, Fabric.ANY_TAG, null));
    }

    @Test
    void cancelWithdrawsAPostedReceiveThatNothingMatchedYet() {
        final Receive r = receive(1, 7, 1);
        mailbox.post(r);
        assertTrue(mailbox.cancel(r));
        assertTrue(r.operation().isCancelled());
        mailbox.deliver(message(1, 7, 1), true);
        assertNotNull(mailbox.peek(CTX, 1, 7, null), "the message waits for another receive");
    }

    @Test
    void cancelOfAReceiveAlreadyMatchedFails() {
        final Receive r = receive(1, 7, 1);
        mailbox.post(r);
        mailbox.deliver(message(1, 7, 1), true);
        assertFalse(mailbox.cancel(r));
        assertFalse(r.operation().isCancelled());
    }

    @Test
    void cancelWithdrawsAWaitingMessageAndGivesBackWhatItHeld() {
        final AtomicInteger released = new AtomicInteger();
        final AtomicInteger consumed = new AtomicInteger();
        final Message m = new Message(
                        CTX, 1, 7, Kind.INT, new int[] {1}, 0, 1, new Operation(), released::incrementAndGet)
                .onConsumed(consumed::incrementAndGet);
        mailbox.deliver(m, false);
        assertTrue(mailbox.cancel(m));
        assertTrue(m.send.isCancelled());
        assertEquals(1, released.get(), "a buffered send's room");
        assertEquals(1, consumed.get(), "its eager credit");
        assertNull(mailbox.peek(CTX, 1, 7, null));
        assertFalse(mailbox.cancel(m), "withdrawn once");
    }

    @Test
    void aReceiveThatTakesAMessageRunsItsConsumedActionOnce() {
        final AtomicInteger consumed = new AtomicInteger();
        mailbox.deliver(message(1, 7, 1).onConsumed(consumed::incrementAndGet), true);
        assertEquals(0, consumed.get(), "kept, not yet taken");
        mailbox.post(receive(1, 7, 1));
        assertEquals(1, consumed.get());
    }

    @Test
    void aMessageLargerThanTheReceiveFailsItWritesNothingAndEndsTheSend() {
        final Message m = message(1, 7, 1, 2, 3);
        mailbox.deliver(m, false);
        final Receive r = receive(1, 7, 2);
        mailbox.post(r);
        final FabricException e =
                assertThrows(FabricException.class, () -> r.operation().await(new Fabric(1)));
        assertTrue(e.getMessage().contains("message truncated"), e.getMessage());
        assertArrayEquals(new int[2], (int[]) r.buffer);
        assertTrue(m.send.isDone());
    }

    @Test
    void aMessageOfAnotherKindFailsTheReceive() {
        mailbox.deliver(new Message(CTX, 1, 7, Kind.LONG, new long[] {1}, 0, 1, new Operation(), null), true);
        final Receive r = receive(1, 7, 1);
        mailbox.post(r);
        final FabricException e =
                assertThrows(FabricException.class, () -> r.operation().await(new Fabric(1)));
        assertTrue(e.getMessage().contains("same datatype"), e.getMessage());
    }

    @Test
    void aProbeWaitsUntilAMatchingMessageComes() throws InterruptedException {
        final Fabric waiting = new Fabric(1);
        final AtomicReference<Message> probed = new AtomicReference<>();
        final Thread prober =
                new Thread(() -> probed.set(mailbox.awaitMessage(waiting, 0, CTX, 2, Fabric.ANY_TAG, null)));
        prober.start();
        try {
            mailbox.deliver(message(1, 9, 1), true); // another source: the probe goes on waiting
            mailbox.deliver(message(2, 9, 2), true);
            prober.join(TimeUnit.SECONDS.toMillis(20));
            assertFalse(prober.isAlive(), "the probe returned");
            assertEquals(2, probed.get().source());
            assertNotNull(mailbox.peek(CTX, 2, 9, null), "a probe takes nothing");
        } finally {
            waiting.abort("the test is over"); // ends the probe's wait if it is still waiting
            prober.join();
        }
    }
}
