package org.troupe.mpi.fabric;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The job's fabric in one JVM: eager credit between ranks, waits, and an aborted job. */
class FabricTest {
    private final Fabric fabric = new Fabric(3);

    @Test
    void aPairsEagerCreditRunsOutAndComesBackWhenItsMessagesAreTaken() {
        final long most = Fabric.EAGER_CREDIT_BYTES - Fabric.MESSAGE_COST;
        assertTrue(fabric.takeEagerCredit(0, 1, most));
        assertFalse(fabric.takeEagerCredit(0, 1, 0), "rank 0 has sent rank 1 all it may before receives take it");
        assertTrue(fabric.takeEagerCredit(0, 2, most), "credit is per pair");
        assertTrue(fabric.takeEagerCredit(1, 0, most), "and per direction");
        fabric.returnEagerCredit(0, 1, Fabric.eagerCost(most));
        assertTrue(fabric.takeEagerCredit(0, 1, most));
    }

    @Test
    void aRefusedCreditTakesNothing() {
        assertFalse(fabric.takeEagerCredit(0, 1, Fabric.EAGER_CREDIT_BYTES));
        assertTrue(fabric.takeEagerCredit(0, 1, Fabric.EAGER_CREDIT_BYTES - Fabric.MESSAGE_COST));
    }

    @Test
    void aWaitInterruptedWhileParkedGoesOnUntilDoneAndKeepsTheInterrupt() {
        final AtomicInteger parks = new AtomicInteger();
        try {
            // Interrupted just before each park, as by another thread while it waits: done only at the third park.
            fabric.await(() -> parks.get() >= 3, this, t -> {
                if (t != null) {
                    parks.incrementAndGet();
                    t.interrupt();
                }
            });
            assertTrue(parks.get() >= 3, "the interrupt did not cut the wait short");
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is set again on return");
        } finally {
            Thread.interrupted(); // leave the test thread as it was
        }
    }

    @Test
    void anAbortedJobRefusesSendsReceivesAndWaits() {
        fabric.abort("first");
        fabric.abort("second");
        final Receive r = new Receive(0, 1, 0, Kind.INT, new int[1], 0, 1);
        final FabricException e = assertThrows(FabricException.class, () -> fabric.post(0, r));
        assertTrue(e.getMessage().contains("first"), "the first reason stays: " + e.getMessage());
        assertThrows(
                FabricException.class,
                () -> fabric.deliver(
                        1, 0, new Message(0, 1, 0, Kind.INT, new int[1], 0, 1, new Operation(), null), true));
        assertThrows(FabricException.class, () -> new Operation().await(fabric));
    }
}
