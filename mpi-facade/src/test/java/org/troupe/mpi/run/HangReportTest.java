package org.troupe.mpi.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.troupe.mpi.fabric.BlockedCall;
import org.troupe.mpi.fabric.Fabric;

/** The report of a hung job, from what the ranks say they are blocked in: when it is said, and what it finds. */
class HangReportTest {
    private static final long NOW = TimeUnit.HOURS.toNanos(1);
    private static final long MINUTE_AGO = NOW - TimeUnit.MINUTES.toNanos(1);

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final HangReport report = new HangReport(3, 30, new PrintStream(printed, true, StandardCharsets.UTF_8));

    private static BlockedCall recv(final int rank, final int from, final long since) {
        return new BlockedCall(rank, BlockedCall.Call.RECV, from, Fabric.WORLD_CONTEXT, 0, 1, since);
    }

    /** Checks now, and again once the state has had time to settle. */
    private void settle(final long now) {
        report.check(now);
        report.check(now + TimeUnit.SECONDS.toNanos(2));
    }

    private String printed() {
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldSayNothingWhileARankRunsOrHasNotWaitedLongEnough() {
        report.blocked(0, List.of(recv(0, 1, MINUTE_AGO)));
        report.blocked(1, List.of(recv(1, 0, MINUTE_AGO)));
        report.check(NOW);
        assertEquals("", printed(), "rank 2 is running");
        report.blocked(2, List.of(recv(2, 0, NOW - TimeUnit.SECONDS.toNanos(10))));
        report.check(NOW);
        assertEquals("", printed(), "rank 2 has waited 10 s of 30");
        report.check(NOW + TimeUnit.SECONDS.toNanos(25));
        assertEquals("", printed(), "the hang has to stay the same for a while first");
        report.check(NOW + TimeUnit.SECONDS.toNanos(27));
        assertTrue(
                printed().startsWith("mpjrun: every rank still running has been blocked in MPI for 30 s"), printed());
    }

    @Test
    void shouldFindACycleAndSayOneHangOnce() {
        report.blocked(0, List.of(recv(0, 1, MINUTE_AGO)));
        report.blocked(1, List.of(recv(1, 0, MINUTE_AGO)));
        report.blocked(2, List.of(recv(2, Fabric.ANY_SOURCE, MINUTE_AGO)));
        settle(NOW);
        settle(NOW + TimeUnit.SECONDS.toNanos(5));
        final String said = printed();
        assertEquals(1, said.split("every rank still running", -1).length - 1, said);
        assertTrue(
                said.contains("mpjrun:   rank 2: Recv from any rank, tag 0, 1 elements, on COMM_WORLD, for 62 s"),
                said);
        assertTrue(said.contains("mpjrun: ranks 0 -> 1 -> 0 each wait for the next"), said);
        report.blocked(2, List.of()); // rank 2 moves on, and is blocked again: another hang
        report.blocked(2, List.of(recv(2, 1, MINUTE_AGO + 1)));
        settle(NOW);
        assertEquals(2, printed().split("every rank still running", -1).length - 1, printed());
    }

    @Test
    void shouldNameAWaitForARankThatHasEndedAndMismatchedCollectives() {
        report.ended(2);
        report.blocked(0, List.of(recv(0, 2, MINUTE_AGO)));
        final int bcast = (4 << 4) | 2; // the fifth collective, a Bcast
        final int barrier = (4 << 4) | 1;
        report.blocked(1, List.of(new BlockedCall(1, BlockedCall.Call.SEND, 0, 1, barrier, 0, MINUTE_AGO)));
        settle(NOW);
        final String said = printed();
        assertTrue(said.contains("mpjrun:   rank 2: ended"), said);
        assertTrue(said.contains("rank 0 waits for rank 2, which has ended: it never will"), said);
        assertTrue(said.contains("rank 1: Barrier (collective step #5) on COMM_WORLD, sending to rank 0"), said);
        report.blocked(0, List.of(new BlockedCall(0, BlockedCall.Call.RECV, 1, 1, bcast, 0, MINUTE_AGO)));
        report.printNow(NOW);
        assertTrue(
                printed()
                        .contains(
                                "on COMM_WORLD, collective step #5, the ranks are in different collectives (rank 1"
                                        + " in Barrier; rank 0 in Bcast): every rank must call the same collectives in the same order"),
                printed());
        final int later = (5 << 4) | 2; // a Bcast a step later: rank 0 may only be ahead
        report.blocked(0, List.of(new BlockedCall(0, BlockedCall.Call.RECV, 1, 1, later, 0, MINUTE_AGO)));
        printed.reset();
        report.printNow(NOW);
        assertFalse(printed().contains("different collectives"), printed());
    }

    @Test
    void shouldSayNothingOfAWaitThatEndedJustAsAnotherRankDid() {
        final HangReport two = new HangReport(2, 30, new PrintStream(printed, true, StandardCharsets.UTF_8));
        two.blocked(0, List.of(recv(0, 1, MINUTE_AGO))); // as its JVM last saw it
        two.ended(1); // the send it waited for came, and rank 1 ended
        two.check(NOW);
        two.blocked(0, List.of()); // its JVM's next look
        two.check(NOW + TimeUnit.SECONDS.toNanos(2));
        assertEquals("", printed());
    }

    @Test
    void shouldNotTakeAWaitForAnyOfSeveralRequestsForAWaitOnOneRank() {
        report.blocked(0, List.of(new BlockedCall(0, BlockedCall.Call.ANY, 1, 0, 7, 1, MINUTE_AGO)));
        report.blocked(1, List.of(recv(1, 0, MINUTE_AGO)));
        report.blocked(2, List.of(recv(2, 0, MINUTE_AGO)));
        settle(NOW);
        assertTrue(
                printed()
                        .contains("rank 0: Waitany or Waitsome over several requests (the first with rank 1, tag 7,"
                                + " on COMM_WORLD)"),
                printed());
        assertFalse(printed().contains("deadlock"), "rank 0 may be waiting for rank 2's message: " + printed());
    }

    @Test
    void shouldSayNothingUnaskedWhenTurnedOff() {
        final HangReport off = new HangReport(1, 0, new PrintStream(printed, true, StandardCharsets.UTF_8));
        off.blocked(0, List.of(recv(0, 0, 0)));
        off.check(NOW);
        off.check(NOW + TimeUnit.SECONDS.toNanos(2));
        assertEquals("", printed());
        off.printNow(NOW);
        assertTrue(printed().contains("rank 0: Recv from rank 0"), printed());
    }
}
