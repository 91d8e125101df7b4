package org.troupe.groups.internal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.troupe.groups.GroupCallException;
import org.troupe.groups.MemberFailure;

/** What a group's log of one-way failures keeps, how much, and what its drain throws: no runtime, no members. */
class OneWayFailureLogTest {
    /** The type of the group whose calls are logged. */
    interface Worker {
        void tick();

        int load();
    }

    private final OneWayFailureLog log = new OneWayFailureLog();
    private final OneWayFailureLog.Call tick = new OneWayFailureLog.Call("Worker.tick on a group of 3");

    private static Method method(final String name) throws NoSuchMethodException {
        return Worker.class.getMethod(name);
    }

    private GroupCallException drain(final String method, final OneWayFailureLog.Call current) throws Exception {
        final Method m = method(method);
        return assertThrows(GroupCallException.class, () -> log.throwKept(Worker.class, m, current));
    }

    @Test
    void aLogWithNothingKeptThrowsNothing() throws Exception {
        log.add(tick, 0, "w0", null); // the member ran the call
        final Method load = method("load");
        final Method tickMethod = method("tick");
        assertDoesNotThrow(() -> log.throwKept(Worker.class, load, null));
        assertDoesNotThrow(() -> log.throwKept(Worker.class, tickMethod, tick));
    }

    @Test
    void theFailuresOfTheCallBeingMadeAloneAreNamedByThatCall() throws Exception {
        final IllegalStateException boom = new IllegalStateException("boom");
        log.add(tick, 1, "w1", boom);
        final GroupCallException e = drain("tick", tick);
        assertEquals(
                "Worker.tick on a group of 3 failed for member 1 (w1): java.lang.IllegalStateException: boom",
                e.getMessage());
        assertEquals(List.of(new MemberFailure(1, "w1", boom)), e.failures());
        assertSame(boom, e.getCause());
    }

    @Test
    void earlierCallsAreNamedWithWhetherTheCallBeingMadeWasMade() throws Exception {
        final OneWayFailureLog.Call later = new OneWayFailureLog.Call("Worker.tick on a group of 3");
        log.add(tick, 0, "w0", new IllegalStateException("first"));
        log.add(later, 0, "w0", new IllegalStateException("second"));
        final String notMade = drain("load", null).getMessage();
        assertTrue(
                notMade.startsWith("Worker.tick on a group of 3 and 1 later one-way call (earlier one-way calls;"
                        + " this Worker.load was not made) failed for "),
                notMade);

        log.add(tick, 2, "w2", new IllegalStateException("third"));
        final OneWayFailureLog.Call current = new OneWayFailureLog.Call("Worker.tick on a group of 3");
        log.add(current, 2, "w2", new IllegalStateException("fourth"));
        final String made = drain("tick", current).getMessage();
        assertTrue(
                made.startsWith("Worker.tick on a group of 3 and 1 later one-way call (earlier one-way calls;"
                        + " this Worker.tick was made) failed for "),
                made);
    }

    @Test
    void anEarlierCallAloneIsNamedAsEarlierEvenByAOneWayCall() throws Exception {
        log.add(tick, 0, "w0", new IllegalStateException("boom"));
        final OneWayFailureLog.Call current = new OneWayFailureLog.Call("Worker.tick on a group of 3");
        assertEquals(
                "Worker.tick on a group of 3 (an earlier one-way call; this Worker.tick was made) failed for"
                        + " member 0 (w0): java.lang.IllegalStateException: boom",
                drain("tick", current).getMessage());
    }

    @Test
    void failuresAreThrownInMemberOrderAndInCallOrderForEachMember() throws Exception {
        final OneWayFailureLog.Call later = new OneWayFailureLog.Call("Worker.tick on a group of 3");
        final RuntimeException a = new RuntimeException("a");
        final RuntimeException b = new RuntimeException("b");
        final RuntimeException c = new RuntimeException("c");
        log.add(tick, 2, "w2", a);
        log.add(later, 0, "w0", b);
        log.add(later, 2, "w2", c);
        assertEquals(
                List.of(new MemberFailure(0, "w0", b), new MemberFailure(2, "w2", a), new MemberFailure(2, "w2", c)),
                drain("load", null).failures());
    }

    @Test
    void onlyABoundedNumberIsKeptAndTheOthersAreCounted() throws Exception {
        for (int i = 0; i < OneWayFailureLog.MAX_KEPT + 8; i++) {
            log.add(tick, i % 3, "w" + (i % 3), new IllegalStateException("tick " + i));
        }
        final GroupCallException e = drain("load", null);
        assertEquals(OneWayFailureLog.MAX_KEPT, e.failures().size());
        assertTrue(
                e.getMessage()
                        .startsWith("Worker.tick on a group of 3, 8 more failures not kept (an earlier"
                                + " one-way call; this Worker.load was not made) failed for "),
                e.getMessage());
    }

    /**
     * A one-way call on a large group, made on plain members that all fail while the caller calls them: the
     * failures beyond the bound are that call's too, and no earlier call is blamed.
     */
    @Test
    void theCallBeingMadeAloneIsNamedWhenItsOwnFailuresWentBeyondTheBound() throws Exception {
        final OneWayFailureLog.Call large = new OneWayFailureLog.Call("Worker.tick on a group of 40");
        for (int i = 0; i < OneWayFailureLog.MAX_KEPT + 8; i++) {
            log.add(large, i, "w" + i, new IllegalStateException("tick " + i));
        }
        final GroupCallException e = drain("tick", large);
        assertTrue(
                e.getMessage().startsWith("Worker.tick on a group of 40, 8 more failures not kept failed for "),
                e.getMessage());
    }

    @Test
    void anEarlierCallIsNamedWhenTheFailuresNotKeptCameFromIt() throws Exception {
        for (int i = 0; i < OneWayFailureLog.MAX_KEPT + 8; i++) {
            log.add(tick, i % 3, "w" + (i % 3), new IllegalStateException("tick " + i));
        }
        final OneWayFailureLog.Call current = new OneWayFailureLog.Call("Worker.tick on a group of 3");
        final GroupCallException e = drain("tick", current);
        assertTrue(
                e.getMessage()
                        .startsWith("Worker.tick on a group of 3, 8 more failures not kept (an earlier"
                                + " one-way call; this Worker.tick was made) failed for "),
                e.getMessage());
    }

    @Test
    void aDrainEmptiesTheLogAndMakesRoomAgain() throws Exception {
        for (int i = 0; i < OneWayFailureLog.MAX_KEPT + 1; i++) {
            log.add(tick, 0, "w0", new IllegalStateException("tick " + i));
        }
        drain("load", null);
        final Method load = method("load");
        assertDoesNotThrow(() -> log.throwKept(Worker.class, load, null), "nothing left");

        final OneWayFailureLog.Call next = new OneWayFailureLog.Call("Worker.tick on a group of 3");
        for (int i = 0; i < OneWayFailureLog.MAX_KEPT; i++) {
            log.add(next, 1, "w1", new IllegalStateException("next " + i));
        }
        final GroupCallException e = drain("tick", next);
        assertEquals(OneWayFailureLog.MAX_KEPT, e.failures().size(), "a full bound kept again");
        assertTrue(
                e.getMessage().startsWith("Worker.tick on a group of 3 failed for "), "none lost: " + e.getMessage());
    }

    @Test
    void failuresAddedFromManyThreadsAreEachKeptOrCounted() throws Exception {
        final int threads = 8;
        final int each = 100;
        final List<Thread> adders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int member = t;
            adders.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < each; i++) {
                    log.add(tick, member, "w" + member, new IllegalStateException("tick " + i));
                }
            }));
        }
        for (final Thread t : adders) {
            t.join();
        }
        final GroupCallException e = drain("load", null);
        assertEquals(OneWayFailureLog.MAX_KEPT, e.failures().size());
        assertTrue(
                e.getMessage()
                        .startsWith("Worker.tick on a group of 3, " + (threads * each - OneWayFailureLog.MAX_KEPT)
                                + " more failures not kept "),
                e.getMessage());
    }
}
