package org.troupe.mpi.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.troupe.core.spi.EndpointAddress;
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
}
