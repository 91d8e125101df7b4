package org.troupe.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The failures of one-way calls a group keeps for its next call: all at once, within bounds, whatever they are. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OneWayFailuresKeptTest {
    /** Opened by a test: the one-way calls fail only then, after they all returned. */
    static volatile CountDownLatch gate = new CountDownLatch(0);

    public static class Flaky {
        public Flaky() {}

        public Flaky(final Integer id) {}

        public void tick(final int i) throws InterruptedException {
            gate.await();
            throw new IllegalStateException("tick fails");
        }

        public void poke() {
            throw new Hostile();
        }

        public Value load() {
            return new Value(1, "loaded");
        }
    }

    /** An exception whose text cannot be read. */
    public static final class Hostile extends RuntimeException {
        @Override
        public String getMessage() {
            throw new IllegalStateException("hostile getMessage");
        }

        @Override
        public String toString() {
            throw new IllegalStateException("hostile toString");
        }
    }

    @RegisterExtension
    final LocalNodes local = LocalNodes.defaultOnly();

    @AfterEach
    void stop() {
        gate.countDown();
    }

    @Test
    void theFailuresOfManyOneWayCallsAreThrownOnceTogetherAndOnlyAFewAreKept() throws Exception {
        gate = new CountDownLatch(1);
        final Flaky g = Groups.newGroup(Flaky.class, new Object[][] {{0}, {1}}, local.nodes());
        for (int i = 0; i < 200; i++) {
            g.tick(i);
        }
        gate.countDown();
        for (final Flaky member : Groups.view(g)) { // members serve in order: their ticks have failed by then
            assertEquals(1, member.load().number());
        }
        final GroupCallException e = assertThrows(GroupCallException.class, g::load);
        final Matcher m = Pattern.compile("Flaky\\.tick on a group of 2 and [0-9]+"
                        + " later one-way calls, ([0-9]+) more failures not kept \\(earlier one-way calls; this Flaky\\.load was"
                        + " not made\\) failed for members? [-0-9]+.*: java\\.lang\\.IllegalStateException: tick fails")
                .matcher(e.getMessage());
        assertTrue(m.matches(), e.getMessage());
        assertEquals(32, e.failures().size(), "a bounded number kept");
        assertEquals(400 - 32, Integer.parseInt(m.group(1)), "the others counted");
        assertEquals("loaded", Groups.view(g.load()).waitTheNth(0).tag(), "all said at once: the next call is made");
    }

    @Test
    void aFailureWhoseTextCannotBeReadIsStillThrownByTheNextCall() throws Exception {
        final Flaky g = Groups.newGroup(Flaky.class, new Object[][] {{0}}, local.nodes());
        g.poke();
        assertEquals("loaded", Groups.view(g).get(0).load().tag(), "served after poke: its failure has come");
        final GroupCallException e = assertThrows(GroupCallException.class, g::load);
        assertInstanceOf(Hostile.class, e.failures().getFirst().cause());
        assertTrue(e.getMessage().contains("(its getMessage threw java.lang.IllegalStateException)"), e.getMessage());
        assertTrue(e.failures().getFirst().toString().startsWith("member 0 ("), "prints without throwing");
    }
}
