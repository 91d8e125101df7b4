package org.troupe.mpi.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;
import org.troupe.mpi.fabric.Fabric;

/** What a rank's JVM makes of what the launcher tells it ({@link JvmRank.Launcher}), without sockets or JVMs. */
class JvmRankLauncherTest {
    private static EndpointAddress rank(final int r) {
        return new EndpointAddress("rank-" + r, "127.0.0.1:" + (5000 + r), r);
    }

    private static void tell(final JvmRank.Launcher launcher, final LauncherMessage m) {
        launcher.received(m.header(), m.payload());
    }

    @Test
    void aTableOfTheJobsRanksIsTaken() throws Exception {
        final JvmRank.Launcher launcher = new JvmRank.Launcher(new Fabric(2));
        tell(launcher, new LauncherMessage.Table(List.of(rank(0), rank(1))));
        assertArrayEquals(new EndpointAddress[] {rank(0), rank(1)}, launcher.table.getNow(null));
    }

    @Test
    void aTableOfAnotherNumberOfRanksThanTheJobsFailsTheRankSayingSo() {
        final JvmRank.Launcher launcher = new JvmRank.Launcher(new Fabric(3));
        tell(launcher, new LauncherMessage.Table(List.of(rank(0), rank(1))));
        assertTrue(launcher.table.isCompletedExceptionally(), "the rank does not wait for another table");
        assertEquals(
                "the launcher's table names 2 ranks, and this job has 3: the launcher and this rank disagree",
                launcher.table.exceptionNow().getMessage());
    }

    /**
     * A deployed rank (its JVM, a node's, lives on) that cannot start must say so to the launcher: else the launcher,
     * which has its HELLO and sees its JVM alive, waits for its end for ever.
     */
    @Test
    void aDeployedRankThatCannotStartTellsTheLauncherItHasEnded() throws Exception {
        final TroupeRuntime runtime = TroupeRuntime.get();
        final BlockingQueue<LauncherMessage> heard = new LinkedBlockingQueue<>();
        final Endpoint[] launcher = new Endpoint[1];
        launcher[0] = runtime.endpoints().open("test-launcher", new EndpointHandler() {
            @Override
            public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
                final LauncherMessage m = LauncherMessage.decode(header, payload);
                heard.add(m);
                if (m instanceof LauncherMessage.Hello h) { // a table of one rank, for a job of two
                    new LauncherMessage.Table(List.of(h.endpoint())).send(launcher[0], from);
                }
            }

            @Override
            public void runtimeLost(final String runtimeId, final String reason) {}
        });
        try {
            final CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> {
                try {
                    return JvmRank.run(
                            "test-launcher",
                            0,
                            2,
                            new ApplicationClasses(List.of(), List.of()),
                            "NoMain",
                            new String[0],
                            true);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(heard.poll(30, TimeUnit.SECONDS) instanceof LauncherMessage.Hello);
            final LauncherMessage end = heard.poll(30, TimeUnit.SECONDS);
            assertTrue(end instanceof LauncherMessage.Done, "the rank said it has ended: " + end);
            final LauncherMessage.Done done = (LauncherMessage.Done) end;
            assertEquals(1, done.status());
            assertTrue(
                    done.failure().contains("the launcher's table names 1 ranks, and this job has 2"), done.failure());
            assertTrue(run.handle((status, failure) -> failure != null).get(30, TimeUnit.SECONDS), "the rank failed");
        } finally {
            launcher[0].close();
            runtime.shutdown();
        }
    }
}
