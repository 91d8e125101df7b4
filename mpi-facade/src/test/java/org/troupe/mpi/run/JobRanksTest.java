package org.troupe.mpi.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;

/** What the launcher makes of what its ranks say and of their JVMs' ends, without sockets or JVMs. */
class JobRanksTest {
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    private final Launcher launcher = new Launcher();

    /** The launcher's endpoint: keeps what it sends, decoded. */
    private static class Launcher implements Endpoint {
        final List<Map.Entry<EndpointAddress, LauncherMessage>> sent = new CopyOnWriteArrayList<>();

        @Override
        public EndpointAddress address() {
            return new EndpointAddress("launcher", "", 1);
        }

        @Override
        public void send(
                final EndpointAddress to, final ByteBuffer header, final ByteBuffer payload, final boolean batch) {
            sent.add(Map.entry(to, LauncherMessage.decode(header, payload)));
        }

        @Override
        public void close() {}
    }

    /** A rank's JVM, alive until the test ends it. */
    private static final class Jvm implements JvmJob.RankJvm {
        volatile boolean alive = true;
        volatile boolean stopped;
        /** Why its end fails the rank: whatever the rank did. */
        volatile String endedBecause;

        volatile boolean ends = true;

        @Override
        public boolean isAlive() {
            return alive;
        }

        @Override
        public String endedBecause(final boolean finalized) {
            return endedBecause;
        }

        @Override
        public boolean awaitEnd(final long seconds) {
            return ends;
        }

        @Override
        public void stop() {
            stopped = true;
            alive = false;
        }
    }

    private static EndpointAddress rank(final int r) {
        return new EndpointAddress("rank-" + r, "127.0.0.1:" + (5000 + r), r);
    }

    /** {@code jvms.length} ranks, started on {@code jvms}, each having said HELLO. */
    private JobRanks ranks(final Jvm... jvms) {
        final JobRanks ranks = new JobRanks(jvms.length, err, new HangReport(jvms.length, 0, err));
        for (int r = 0; r < jvms.length; r++) {
            ranks.started(r, jvms[r]);
            ranks.onHello(r, rank(r));
        }
        return ranks;
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aJobWhoseRanksAllFinishedWellHasStatusZeroAndIsNotAborted() throws Exception {
        final JobRanks ranks = ranks(new Jvm(), new Jvm());
        ranks.onDone(0, 0, "");
        ranks.onDone(1, 0, "");
        assertEquals(0, ranks.supervise(launcher));
        assertTrue(launcher.sent.isEmpty(), launcher.sent.toString());
        assertEquals("", err());
    }

    @Test
    void aRankThatFailedAbortsTheJobTellingEveryRankWhy() throws Exception {
        final JobRanks ranks = ranks(new Jvm(), new Jvm());
        ranks.onDone(0, 0, "");
        ranks.onDone(1, 1, "java.lang.IllegalStateException: boom");
        assertEquals(1, ranks.supervise(launcher));
        assertTrue(err().contains("mpjrun: rank 1 of 2: java.lang.IllegalStateException: boom"), err());
        final LauncherMessage abort = new LauncherMessage.Abort("rank 1 failed: java.lang.IllegalStateException: boom");
        assertEquals(List.of(Map.entry(rank(0), abort), Map.entry(rank(1), abort)), launcher.sent);
    }

    @Test
    void aRankWhoseJvmEndedBeforeItFinishedFailsTheJob() throws Exception {
        final Jvm lost = new Jvm();
        lost.alive = false;
        lost.endedBecause = "its JVM ended with status 3 before the rank finished";
        final JobRanks ranks = ranks(new Jvm(), lost);
        ranks.onDone(0, 0, "");
        assertEquals(1, ranks.supervise(launcher));
        assertTrue(err().contains("mpjrun: rank 1 of 2: its JVM ended with status 3 before the rank finished"), err());
        assertEquals(
                new LauncherMessage.Abort("rank 1: its JVM ended with status 3 before the rank finished"),
                launcher.sent.getFirst().getValue());
    }

    @Test
    void theAbortIsSentWhileTheLinksThreadsMayRecordWhatRanksSayAndNotToALostJvm() throws Exception {
        final Jvm lost = new Jvm();
        lost.alive = false;
        lost.endedBecause = "its JVM ended with status 137 before the rank finished";
        final JobRanks ranks = ranks(new Jvm(), lost);
        final List<Boolean> recorded = new CopyOnWriteArrayList<>();
        // A send waits for a link's event loop; that loop may be recording, under the job's monitor, that a runtime
        // was lost. Sending under the monitor held both for the connect's whole timeout.
        final Endpoint eventLoopBound = new Launcher() {
            @Override
            public void send(
                    final EndpointAddress to, final ByteBuffer header, final ByteBuffer payload, final boolean batch) {
                final Thread eventLoop = new Thread(ranks::wake);
                eventLoop.start();
                try {
                    eventLoop.join(30_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                recorded.add(!eventLoop.isAlive());
                ranks.onDone(0, 1, "mpi.MPIException: the job was aborted");
                super.send(to, header, payload, batch);
            }
        };
        assertEquals(1, ranks.supervise(eventLoopBound));
        assertEquals(List.of(true), recorded, "the link's thread recorded what it heard while the abort was sent");
        assertTrue(
                err().contains("mpjrun: 1 of 2 ranks failed; rank 0 stopped in an MPI call as the job was aborted"),
                err());
    }

    @Test
    void aRanksAbortIsToldToEveryRankAndARankStillRunningAfterTheGraceTimeIsStopped() throws Exception {
        final Jvm running = new Jvm();
        final JobRanks ranks = ranks(running, new Jvm());
        ranks.onAborted(1, 3, "rank 1 called Abort(3)");
        ranks.onDone(1, 3, "called Abort(3)");
        assertEquals(3, ranks.supervise(launcher), "mpjrun exits with Abort's error code, as mpirun does");
        final LauncherMessage abort = new LauncherMessage.Abort("rank 1 called Abort(3)");
        assertEquals(List.of(Map.entry(rank(0), abort), Map.entry(rank(1), abort)), launcher.sent);
        assertTrue(running.stopped);
        assertEquals(
                "mpjrun: rank 1 of 2: called Abort(3)\n"
                        + "mpjrun: 1 of 2 ranks failed; rank 0 was still running 5 s after the job was aborted: stopped\n",
                err(),
                "the cause once, then what became of the others");
    }

    @Test
    void aStoppedLauncherStopsEveryRankAndSaysNothingMore() throws Exception {
        final Jvm first = new Jvm();
        final Jvm second = new Jvm();
        final JobRanks ranks = ranks(first, second);
        ranks.stopAll();
        assertTrue(first.stopped && second.stopped);
        assertEquals(JobRanks.STOPPED_STATUS, ranks.supervise(launcher));
        assertEquals("", err());
        assertTrue(launcher.sent.isEmpty(), launcher.sent.toString());
    }

    @Test
    void theStartIsOverWhenARankThatHasNotSaidHelloHasEnded() throws Exception {
        final Jvm gone = new Jvm();
        gone.alive = false;
        final JobRanks ranks = new JobRanks(2, err, new HangReport(2, 0, err));
        ranks.started(0, new Jvm());
        ranks.started(1, gone);
        ranks.onHello(0, rank(0));
        assertFalse(ranks.awaitHellos(60));
        ranks.onHello(1, rank(1));
        assertTrue(ranks.awaitHellos(60));
        assertEquals(List.of(rank(0), rank(1)), ranks.endpoints());
    }

    @Test
    void aJvmThatDoesNotEndOnceReleasedIsStoppedAndFailsTheJob() throws Exception {
        final Jvm stuck = new Jvm();
        stuck.ends = false;
        final JobRanks ranks = ranks(new Jvm(), stuck);
        ranks.onDone(0, 0, "");
        ranks.onDone(1, 0, "");
        assertEquals(1, ranks.awaitEnds(0, 5));
        assertTrue(stuck.stopped);
        assertTrue(err().contains("mpjrun: rank 1 did not end; it was stopped"), err());
    }

    // --- what the launcher's endpoint takes of what it is told ---

    /** Gives the launcher's endpoint handler {@code m}, as endpoint {@code from} sent it. */
    private static void say(final JvmJob.RankMessages to, final EndpointAddress from, final LauncherMessage m) {
        to.received(from, m.header(), m.payload());
    }

    private JvmJob.RankMessages messagesTo(final JobRanks ranks) {
        return new JvmJob.RankMessages(
                ranks,
                (first, count, at) -> new Jvm(),
                new ForwardedOutput(err, ranks.size(), false),
                new ForwardedOutput(err, ranks.size(), false));
    }

    @Test
    void aSecondHelloForARankIsRefusedAndTheFirstEndpointKept() {
        final JobRanks ranks = ranks(new Jvm(), new Jvm());
        final EndpointAddress other = new EndpointAddress("rank-9", "127.0.0.1:5009", 9);
        say(messagesTo(ranks), other, new LauncherMessage.Hello(0, other));
        assertEquals(List.of(rank(0), rank(1)), ranks.endpoints());
        assertEquals(
                "rank 0 said HELLO already, from " + rank(0),
                ranks.refusal(new LauncherMessage.Hello(0, other), other));
    }

    @Test
    void aRanksEndSaidFromAnotherRanksEndpointIsRefused() throws Exception {
        final Jvm ended = new Jvm();
        ended.alive = false; // it ended well, without saying DONE itself
        final JobRanks ranks = ranks(ended, new Jvm());
        final JvmJob.RankMessages messages = messagesTo(ranks);
        say(messages, rank(1), new LauncherMessage.Done(0, 1, "forged"));
        say(messages, rank(1), new LauncherMessage.Done(1, 0, ""));
        assertEquals(0, ranks.supervise(launcher));
        assertEquals("", err());
        assertEquals(
                "rank 0 said HELLO from " + rank(0) + ", not from " + rank(1),
                ranks.refusal(new LauncherMessage.Done(0, 1, "forged"), rank(1)));
    }

    @Test
    void aSecondEndFromARankIsRefusedAndTheFirstKept() throws Exception {
        final Jvm ended = new Jvm();
        ended.alive = false;
        final JobRanks ranks = ranks(new Jvm(), ended);
        final JvmJob.RankMessages messages = messagesTo(ranks);
        say(messages, rank(0), new LauncherMessage.Done(0, 0, ""));
        say(messages, rank(1), new LauncherMessage.Done(1, 0, ""));
        say(messages, rank(1), new LauncherMessage.Done(1, 1, "late"));
        assertEquals(0, ranks.supervise(launcher));
        assertEquals(0, ranks.awaitEnds(0, 5));
        assertEquals("", err());
        assertEquals("rank 1 said DONE already", ranks.refusal(new LauncherMessage.Done(1, 1, "late"), rank(1)));
    }

    @Test
    void aMessageFromARankOutsideTheJobOrBeforeItsHelloIsRefusedSayingSo() {
        final JobRanks ranks = new JobRanks(2, err, new HangReport(2, 0, err));
        ranks.started(0, new Jvm());
        ranks.started(1, new Jvm());
        assertEquals(
                "rank 2 is not one of the job's 2 ranks",
                ranks.refusal(new LauncherMessage.Hello(2, rank(2)), rank(2)));
        assertEquals("rank 1 has not said HELLO", ranks.refusal(new LauncherMessage.Done(1, 0, ""), rank(1)));
        assertEquals(
                "it names " + rank(1) + " as rank 0's endpoint, not its sender " + rank(0),
                ranks.refusal(new LauncherMessage.Hello(0, rank(1)), rank(0)));
        assertEquals(null, ranks.refusal(new LauncherMessage.Hello(0, rank(0)), rank(0)));
    }
}
