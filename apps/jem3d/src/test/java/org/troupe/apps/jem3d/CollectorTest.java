package org.troupe.apps.jem3d;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The collector's bookkeeping, called directly as the subdomains' reports would call it. */
class CollectorTest {
    @Test
    void reportsDelayedOnOneLinkAreSummedWhenTheyCome() {
        Collector c = new Collector();
        c.attach(new Subdomain[3], 50);
        // subdomain 0's reports come through at once, those of 1 and 2 lag far behind (other links, other JVMs)
        for (int step = 1; step <= 40; step++) {
            c.progress(0, step, 1.0, Double.NaN, Double.NaN);
        }
        assertEquals(0, c.status().stepsDone());
        for (int step = 1; step <= 40; step++) {
            c.progress(1, step, 2.0, Double.NaN, Double.NaN);
            c.progress(2, step, step == 20 ? 3.5 : 3.0, step % 10 == 0 ? 4.0 : Double.NaN, 0.0);
        }
        RunStatus status = c.status();
        assertNull(status.failure());
        assertEquals(40, status.stepsDone());
        assertEquals(40, c.energies().length);
        assertEquals(6.0, c.energies()[0]);
        assertEquals(6.5, c.energies()[19]);
        assertEquals(0.5 / 6, status.energyDrift(), 1e-15);
        // an error sample counts once every subdomain measured it: none here (only subdomain 2 did)
        assertEquals(0, c.errors().length);
    }

    @Test
    void errorSamplesAreSummedOverTheSubdomains() {
        Collector c = new Collector();
        c.attach(new Subdomain[2], 4);
        for (int step = 1; step <= 4; step++) {
            for (int s = 0; s < 2; s++) {
                c.progress(s, step, 1.0, step == 2 ? 9.0 : Double.NaN, step == 2 ? 16.0 : Double.NaN);
            }
        }
        assertEquals(1, c.errors().length);
        assertArrayEquals(new double[] {2, Math.sqrt(18), Math.sqrt(32)}, c.errors()[0], 1e-15);
    }

    /** Records what the collector asks of it, as a subdomain would be asked. */
    static final class Recorded extends Subdomain {
        final List<String> calls = new ArrayList<>();

        @Override
        public void pause(final int round) {
            calls.add("pause " + round);
        }

        @Override
        public void resume() {
            calls.add("resume");
        }

        @Override
        public void stopAt(final int steps) {
            calls.add("stopAt " + steps);
        }
    }

    @Test
    void aStopCountsOnlyTheAnswersToItsOwnPause() {
        Recorded a = new Recorded();
        Recorded b = new Recorded();
        Collector c = new Collector();
        c.attach(new Subdomain[] {a, b}, 100);
        c.pause();
        c.resume();
        c.stop();
        assertEquals(List.of("pause 1", "resume", "pause 2"), a.calls);
        // the first pause's answers come late: they must not end the run at their steps
        c.pausedAt(0, 10, 1);
        c.pausedAt(1, 12, 1);
        assertEquals(100, c.status().stepsPlanned());
        c.pausedAt(0, 11, 2);
        assertEquals(100, c.status().stepsPlanned(), "one answer of two");
        c.pausedAt(1, 14, 2);
        assertEquals(15, c.status().stepsPlanned());
        assertEquals(List.of("pause 1", "resume", "pause 2", "stopAt 15", "resume"), b.calls);
    }

    @Test
    void aReportOfAStepAlreadyCompleteOrBeyondTheEndFailsTheRun() {
        Collector c = new Collector();
        c.attach(new Subdomain[1], 5);
        c.progress(0, 1, 1.0, Double.NaN, Double.NaN);
        c.progress(0, 1, 1.0, Double.NaN, Double.NaN);
        String failure = c.status().failure();
        assertTrue(failure != null && failure.contains("subdomain 0 reported step 1"), failure);
        Collector d = new Collector();
        d.attach(new Subdomain[1], 5);
        d.progress(0, 6, 1.0, Double.NaN, Double.NaN);
        assertTrue(d.status().failure() != null, "step 6 of 5");
    }
}
