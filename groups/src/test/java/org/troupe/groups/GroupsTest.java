package org.troupe.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.core.exceptions.TerminatedException;
import org.troupe.core.exceptions.TroupeException;

/** Groups whose members live in this JVM: every group feature, without the network. */
class GroupsTest {
    @RegisterExtension
    final LocalNodes local = LocalNodes.defaultAnd("second");

    @AfterEach
    void stop() {
        Worker.gate = new CountDownLatch(0);
    }

    private static Object[][] ids(final int n) {
        final Object[][] params = new Object[n][];
        for (int i = 0; i < n; i++) {
            params[i] = new Object[] {i};
        }
        return params;
    }

    private static List<Integer> numbers(final Value results) {
        final List<Integer> out = new ArrayList<>();
        for (final Value v : Groups.view(results)) {
            out.add(v.number());
        }
        return out;
    }

    @Test
    void shouldCreateMembersOnTheNodesAndCallThemAll() {
        final Worker g = Groups.newGroup(Worker.class, ids(4), local.nodes());
        final Group<Worker> view = Groups.view(g);
        assertEquals(4, view.size());
        assertTrue(view.members().stream().allMatch(ActiveObjects::isActiveObject));
        final Value r = g.value(7);
        assertTrue(Groups.isGroup(r), "a call with a result returns a result group");
        assertEquals(List.of(7, 107, 207, 307), numbers(r));
    }

    @Test
    void shouldGiveEachMemberItsOwnCopyOfABroadcastArgument() {
        final Worker g = Groups.newGroup(Worker.class, ids(3), local.nodes());
        final double[] data = {0};
        g.fill(data, 5);
        assertEquals(0, data[0], "the caller's array is not the members'");
        assertEquals(
                List.of("d5.0", "d5.0", "d5.0"),
                Groups.view(g.received()).members().stream().map(Value::tag).toList());
    }

    @Test
    void shouldCallEachMemberOfAResultGroupAsSoonAsItsValueArrives() throws Exception {
        final Worker g = Groups.newGroup(Worker.class, ids(2), local.nodes());
        Worker.gate = new CountDownLatch(1);
        final Group<Worker> view = Groups.view(g);
        view.method("gated", boolean.class).personalize((rank, size, args) -> new Object[] {rank == 1});
        final Value firsts = g.gated(false);
        final Value seconds = firsts.plus(1); // forwarded member by member
        final Group<Value> next = Groups.view(seconds);
        assertEquals(1, next.waitTheNth(0).number(), "member 0 was called on while member 1 is still held");
        assertFalse(next.isArrived(1));
        assertFalse(Groups.view(firsts).allArrived());
        Worker.gate.countDown();
        next.waitAll();
        assertEquals(List.of(1, 2), numbers(seconds));
        assertEquals("gated1+1", next.get(1).tag());
    }

    @Test
    void shouldWaitForAnyAndForN() throws Exception {
        final Worker g = Groups.newGroup(Worker.class, ids(3), local.nodes());
        Worker.gate = new CountDownLatch(1);
        Groups.view(g).method("gated", boolean.class).personalize((rank, size, args) -> new Object[] {rank != 2});
        final Group<Value> r = Groups.view(g.gated(true));
        assertEquals(2, r.waitAny(), "only the ungated member can arrive");
        r.waitN(1);
        assertEquals(1, r.arrivedCount());
        Worker.gate.countDown();
        r.waitN(3);
        assertTrue(r.allArrived());
    }

    @Test
    void shouldScatterArraysAndGroups() {
        final Worker g = Groups.newGroup(Worker.class, ids(3), local.nodes());
        final Group<Worker> view = Groups.view(g).setScatter(true);
        g.take(new int[] {10, 11, 12});
        final Value parts = g.received();
        assertEquals(
                List.of("10", "11", "12"),
                Groups.view(parts).members().stream().map(Value::tag).toList());
        final Value with = g.withValue(parts); // member i gets parts' member i, a future
        assertEquals(List.of(1, 2, 3), numbers(with));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> g.take(new int[] {1, 2}));
        assertTrue(e.getMessage().contains("3 members but has 2"), e.getMessage());
        view.setScatter(false);
        g.take(new int[] {1, 2});
        assertEquals(List.of(2, 2, 2), numbers(g.received()), "broadcast again: each member got the whole array");
    }

    @Test
    void shouldCallSubclassMembersByTheirOwnMethods() {
        final Worker plain = ActiveObjects.newActive(Worker.class, new Object[] {1}, local.nodes()[0]);
        final FastWorker fast = ActiveObjects.newActive(FastWorker.class, new Object[] {2}, local.nodes()[1]);
        final Worker g = Groups.of(Worker.class, plain, fast);
        assertEquals(List.of(103, -3), numbers(g.value(3)));
        assertEquals(
                List.of(1, 2), Groups.view(g).members().stream().map(Worker::id).toList());
    }

    @Test
    void shouldCallNestedGroupsAndPlainMembers() {
        final Worker inner = Groups.newGroup(Worker.class, ids(2), local.nodes());
        final Worker outer = Groups.of(Worker.class, inner, new Worker(5));
        final Value r = outer.value(1);
        final Group<Value> view = Groups.view(r);
        assertEquals(2, view.size());
        assertTrue(Groups.isGroup(view.get(0)), "a nested group's results are a nested result group");
        assertEquals(List.of(1, 101), numbers(view.get(0)));
        assertEquals(501, view.waitTheNth(1).number());
        view.waitAll();
        assertTrue(view.allArrived());
        Groups.view(outer).method("value", int.class).personalize((rank, size, args) -> new Object[] {rank * 1000});
        final Group<Value> personal = Groups.view(outer.value(0));
        assertEquals(
                List.of(0, 100), numbers(personal.get(0)), "a nested group takes its slot's arguments as they are");
        assertEquals(1500, personal.waitTheNth(1).number());
    }

    @Test
    void shouldPersonalizeArguments() {
        final Worker g = Groups.newGroup(Worker.class, ids(3), local.nodes());
        Groups.view(g).method("value", int.class).personalize((rank, size, args) -> new Object[] {rank * size});
        assertEquals(List.of(0, 103, 206), numbers(g.value(99)));
        Groups.view(g).method("value", int.class).reset();
        assertEquals(List.of(99, 199, 299), numbers(g.value(99)));
    }

    @Test
    void shouldCombineRepliesAtTheCallerAndAlongATree() {
        final Worker g = Groups.newGroup(Worker.class, ids(7), local.nodes());
        final TroupeException refused = assertThrows(TroupeException.class, g::load);
        assertTrue(refused.getMessage().contains("combine"), refused.getMessage());
        final Group<Worker> view = Groups.view(g);
        view.method("load").combine((Integer a, Integer b) -> a + b, GroupMethod.Reduction.AT_CALLER);
        assertEquals(21, g.load());
        view.method("load").combine(new Sum(), GroupMethod.Reduction.TREE);
        assertEquals(21, g.load());
        assertThrows(
                IllegalArgumentException.class,
                () -> view.method("load").combine((Integer a, Integer b) -> a + b, GroupMethod.Reduction.TREE),
                "a lambda cannot travel");
    }

    @Test
    void shouldKeepAMemberFailureInItsSlot() {
        final Worker g = Groups.newGroup(Worker.class, ids(3), local.nodes());
        final Group<Value> r = Groups.view(g.fail(1));
        r.waitAll();
        assertEquals(1, r.failures().size());
        assertEquals(1, r.failures().getFirst().index());
        assertInstanceOf(IllegalStateException.class, r.failures().getFirst().cause());
        assertEquals(0, r.waitTheNth(0).number());
        assertEquals(2, r.waitTheNth(2).number());
        assertThrows(IllegalStateException.class, () -> r.get(1).number());
    }

    @Test
    void shouldReportOneWayFailuresTogetherAndPurgeDeadMembers() {
        final Worker g = Groups.newGroup(Worker.class, ids(4), local.nodes());
        final Group<Worker> view = Groups.view(g);
        final Worker dead1 = view.get(1);
        final Worker dead3 = view.get(3);
        ActiveObjects.terminate(dead1);
        ActiveObjects.terminate(dead3);
        final GroupCallException e = assertThrows(GroupCallException.class, () -> g.fill(new double[1], 1));
        assertEquals(
                List.of(1, 3), e.failures().stream().map(MemberFailure::index).toList());
        final Value results = g.value(0);
        Groups.view(results).waitAll();
        assertTrue(Groups.view(results).failures().stream().allMatch(f -> f.cause() instanceof TerminatedException));
        assertEquals(List.of(dead1, dead3), view.purgeDead(Groups.view(results)));
        assertEquals(List.of(0, 2), view.members().stream().map(Worker::id).toList());
    }

    @Test
    void shouldManageMembersByIndexNameAndSetOperations() {
        final Worker a = ActiveObjects.newActive(Worker.class, new Object[] {1}, local.nodes()[0]);
        final Worker b = ActiveObjects.newActive(Worker.class, new Object[] {2}, local.nodes()[0]);
        final Worker c = ActiveObjects.newActive(Worker.class, new Object[] {3}, local.nodes()[1]);
        final Group<Worker> ab = Groups.view(Groups.of(Worker.class, a, b));
        final Group<Worker> bc = Groups.view(Groups.of(Worker.class, b));
        bc.add(c, "third");
        assertEquals(c, bc.get("third"));
        assertEquals(1, bc.indexOf(c));
        assertThrows(IllegalArgumentException.class, () -> bc.add(a, "third"));
        assertEquals(List.of(a, b, c), ab.union(bc).members());
        assertEquals(List.of(b), ab.intersection(bc).members());
        assertEquals(List.of(a), ab.difference(bc).members());
        assertTrue(bc.remove(c));
        assertFalse(bc.names().contains("third"));
        assertEquals(List.of(202), numbers(bc.typed().value(2)));
        assertThrows(IllegalArgumentException.class, () -> Groups.view(a));
        assertThrows(IllegalArgumentException.class, () -> ab.add(ab.typed()));
    }

    @Test
    void shouldTerminateWhatWasCreatedWhenAMemberCannotBe() throws Exception {
        final Object[][] params = {{1}, {"not an id"}, {3}};
        final TroupeException e =
                assertThrows(TroupeException.class, () -> Groups.newGroup(Worker.class, params, local.nodes()));
        assertTrue(e.getMessage().contains("1 of 3"), e.getMessage());
        // Terminated bodies end once their thread has seen it.
        Await.until(
                Duration.ofSeconds(30),
                () -> local.runtime().activeObjectCount() == 0,
                "the members made before the failure to end");
    }

    @Test
    void shouldTellSpmdMembersTheirRankAndMeetAtBarriers() throws Exception {
        final Ranked g = Groups.newSpmdGroup(Ranked.class, new Object[6][], local.nodes());
        final Group<Ranked> view = Groups.view(g);
        view.method("whoAmI").combine((String x, String y) -> x + " " + y, GroupMethod.Reduction.AT_CALLER);
        assertEquals("0/6/6 1/6/6 2/6/6 3/6/6 4/6/6 5/6/6", g.whoAmI());
        final Group<Ranked> one = Groups.view(Groups.newSpmdGroup(Ranked.class, new Object[1][], local.nodes()));
        one.method("askOwnGroup").combine((String x, String y) -> x + y, GroupMethod.Reduction.AT_CALLER);
        assertTrue(one.typed().askOwnGroup().contains("would wait for its own reply"));
        view.method("meet", int.class).combine(GroupsTest::concat, GroupMethod.Reduction.AT_CALLER);
        for (int round = 0; round < 3; round++) {
            assertBarrierHeld(g.meet(round));
        }
        view.method("meetNeighbours").combine(GroupsTest::concat, GroupMethod.Reduction.AT_CALLER);
        for (int round = 0; round < 3; round++) {
            final long[] t = g.meetNeighbours(); // {arrived, left} per rank, in rank order
            for (int r = 0; r < 6; r++) {
                final int left = (r + 5) % 6;
                final int right = (r + 1) % 6;
                assertTrue(
                        t[2 * r + 1] >= t[2 * left] && t[2 * r + 1] >= t[2 * right],
                        "rank " + r + " left before a neighbour arrived");
            }
        }
    }

    static long[] concat(final long[] a, final long[] b) {
        final long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** {arrived, left} pairs: nobody left the barrier before the last one arrived. */
    static void assertBarrierHeld(final long[] times) {
        long lastArrival = Long.MIN_VALUE;
        long firstLeave = Long.MAX_VALUE;
        for (int i = 0; i < times.length; i += 2) {
            lastArrival = Math.max(lastArrival, times[i]);
            firstLeave = Math.min(firstLeave, times[i + 1]);
        }
        assertTrue(lastArrival <= firstLeave, "a member left the barrier before the last one arrived");
    }

    @Test
    void shouldReadSpmdStateOnlyInsideAMember() {
        assertThrows(IllegalStateException.class, Spmd::rank);
        assertThrows(IllegalArgumentException.class, () -> Groups.newGroup(Worker.class, ids(1), new Node[0]));
        assertEquals(
                0,
                Groups.view(Groups.newGroup(Worker.class, ids(1)).value(0))
                        .waitTheNth(0)
                        .number());
    }
}
