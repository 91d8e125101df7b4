package org.troupe.apps.jem3d;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checkpoint store in memory: what a buddy's keeper holds, tells, and drops. */
class KeeperTest {
    /** Records the copies reported as kept. */
    static final class Recorded extends Collector {
        final List<String> kept = new ArrayList<>();

        @Override
        public void kept(final int epoch, final int index, final int step) {
            kept.add(epoch + "/" + index + "/" + step);
        }
    }

    @Test
    void copiesAreKeptToldAndDroppedOnceALaterCheckpointIsComplete() {
        Keeper k = new Keeper();
        Recorded collector = new Recorded();
        k.keep(0, 1, 100, new double[] {1}, new double[] {2}, collector);
        k.keep(0, 1, 200, new double[] {3}, new double[] {4}, collector);
        k.keep(0, 2, 200, new double[] {5}, new double[] {6}, collector);
        assertEquals(List.of("0/1/100", "0/1/200", "0/2/200"), collector.kept);
        assertArrayEquals(new double[] {3}, k.copy(0, 1, 200)[0]);
        assertArrayEquals(new double[] {6}, k.copy(0, 2, 200)[1]);
        assertNull(k.copy(0, 2, 100), "never kept");
        k.complete(0, 200);
        assertNull(k.copy(0, 1, 100), "older than the complete checkpoint");
        assertArrayEquals(new double[] {3}, k.copy(0, 1, 200)[0], "the complete one stays");
        // a restart begins epoch 1, whose blocks are not epoch 0's: its first complete checkpoint drops them all
        k.keep(1, 1, 300, new double[] {7}, new double[] {8}, collector);
        k.complete(1, 300);
        assertNull(k.copy(0, 1, 200));
        assertArrayEquals(new double[] {8}, k.copy(1, 1, 300)[1]);
    }

    @Test
    void aCheckpointIsCompleteOnceEveryCopyIsKeptAndTheStepsUpToItAreIn() {
        Collector c = new Collector(0, 2, 0, new double[0], new double[0][]);
        c.attach(new Subdomain[2], 500);
        for (int s = 0; s < 2; s++) {
            c.kept(0, s, 100);
            c.kept(0, s, 100);
        }
        assertEquals(-1, c.status().checkpointStep(), "the steps up to 100 are not in yet");
        for (int step = 1; step <= 100; step++) {
            c.progress(0, step, 1.0, Double.NaN, Double.NaN);
            c.progress(1, step, 1.0, Double.NaN, Double.NaN);
        }
        assertEquals(100, c.status().checkpointStep());
        c.kept(0, 0, 200);
        c.kept(1, 0, 200); // a copy of another epoch's is late: it does not count
        assertEquals(100, c.status().checkpointStep(), "one copy of three is not a checkpoint");
    }
}
