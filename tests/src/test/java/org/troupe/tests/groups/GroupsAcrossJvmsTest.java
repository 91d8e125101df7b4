package org.troupe.tests.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.core.OneWayFailure;
import org.troupe.core.Subscription;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.core.exceptions.TroupeException;
import org.troupe.groups.Group;
import org.troupe.groups.GroupCallException;
import org.troupe.groups.GroupMethod;
import org.troupe.groups.Groups;
import org.troupe.groups.MemberFailure;
import org.troupe.tests.NodeJvms;
import org.troupe.tests.ParentRuntime;

/** Groups whose members live in two node JVMs (and a third one that a test kills). */
@Timeout(value = 150, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GroupsAcrossJvmsTest {
    private static final long ME = ProcessHandle.current().pid();

    @RegisterExtension
    static final ParentRuntime parent = ParentRuntime.withNodeJvms("g1", "g2");

    private static TroupeRuntime runtime;
    private static NodeJvms jvms;
    private static Node n1;
    private static Node n2;

    @BeforeAll
    static void nodes() {
        runtime = parent.runtime();
        jvms = parent.jvms();
        n1 = parent.node("g1");
        n2 = parent.node("g2");
    }

    private static Object[][] ids(final int n) {
        final Object[][] params = new Object[n][];
        for (int i = 0; i < n; i++) {
            params[i] = new Object[] {i};
        }
        return params;
    }

    private static Set<Long> pids(final Sample results) {
        final Set<Long> out = new HashSet<>();
        for (final Sample s : Groups.view(results)) {
            out.add(s.pid());
        }
        return out;
    }

    @Test
    void shouldCreateMembersInParallelOnTheNodesOfTwoJvms() {
        final Member g = Groups.newGroup(Member.class, ids(6), new Node[] {n1, n2});
        final Sample samples = g.sample();
        final Group<Sample> view = Groups.view(samples);
        assertEquals(
                List.of(0, 1, 2, 3, 4, 5),
                view.members().stream().map(Sample::id).toList());
        assertEquals(2, pids(samples).size());
        assertFalse(pids(samples).contains(ME));
        assertEquals(view.get(0).pid(), view.get(2).pid(), "member i lives on nodes[i % 2]");
    }

    @Test
    void shouldSerializeABroadcastOncePerJvm() {
        final Member g = Groups.newGroup(Member.class, ids(8), new Node[] {n1});
        final double[] data = new double[128 * 1024]; // 1 MiB
        final long before = TroupeRuntime.get().bytesSent();
        g.receive(data);
        final long broadcast = TroupeRuntime.get().bytesSent() - before;
        assertTrue(broadcast < data.length * 8L + 64 * 1024, "one copy of the 1 MiB crossed: " + broadcast);
        final Sample received = g.received();
        for (final Sample s : Groups.view(received)) {
            assertEquals(data.length, s.id(), "every member got the whole array");
        }
        final long loopStart = TroupeRuntime.get().bytesSent();
        for (final Member m : Groups.view(g)) {
            m.receive(data);
        }
        assertTrue(
                TroupeRuntime.get().bytesSent() - loopStart >= 8L * data.length * 8,
                "a loop sends one copy per member");
    }

    @Test
    void shouldScatterAGroupOfFuturesAcrossJvms() {
        final Member g = Groups.newGroup(Member.class, ids(4), new Node[] {n1, n2});
        final Sample samples = g.sample(); // futures, resolved in the members' JVMs
        Groups.view(g).setScatter(true);
        final Sample echoed = g.echo(samples); // member i gets samples' member i
        assertEquals(
                List.of(0, 10, 20, 30),
                Groups.view(echoed).members().stream().map(Sample::id).toList());
        Groups.view(g).setScatter(false);
        assertEquals(
                List.of(20, 20, 20, 20),
                Groups.view(g.echo(Groups.view(samples).get(2))).members().stream()
                        .map(Sample::id)
                        .toList());
    }

    @Test
    void shouldGiveAPendingFutureToEveryMemberItIsBroadcastTo() throws Exception {
        final Member g = Groups.newGroup(Member.class, ids(4), new Node[] {n1});
        final Member other = ActiveObjects.newActive(Member.class, new Object[] {7}, n2);
        final Sample pending = other.slow(300); // not resolved when the broadcast leaves: one frame, 4 members
        final Sample echoed = g.echo(pending);
        assertEquals(
                List.of(70, 70, 70, 70),
                Groups.view(echoed).members().stream().map(Sample::id).toList());
    }

    @Test
    void shouldPassAGroupToAMemberOfAnotherJvm() {
        final Member g = Groups.newGroup(Member.class, ids(4), new Node[] {n1, n2});
        final Member asker = ActiveObjects.newActive(Member.class, new Object[] {9}, n2);
        final Sample answer = asker.askAll(g);
        assertEquals(4000 + 6, answer.id(), "the group arrived with its 4 members, who all answered");
        assertFalse(answer.pid() == ME);
    }

    @Test
    void shouldReportAOneWayCallsFailureInAMembersJvmOnceWithTheMemberAndItsNode() throws Exception {
        final LinkedBlockingQueue<OneWayFailure> logged = new LinkedBlockingQueue<>();
        try (Subscription s = ActiveObjects.onOneWayFailure(logged::add)) {
            final Member g = Groups.newGroup(Member.class, ids(4), new Node[] {n1, n2});
            final Member two = Groups.view(g).get(2); // on g1
            GroupCallException reported = null;
            try {
                g.failAt(2); // returns once sent; member 2 throws in its JVM
            } catch (GroupCallException e) {
                reported = e; // only if its failure came back before the call returned
            }
            if (reported == null) {
                // Each member serves in order: once member 2's sample is back, its failure is too. The first call
                // after that, or this one if it came already, throws it instead of being made.
                reported = assertThrows(GroupCallException.class, () -> {
                    Groups.view(g.sample()).waitAll();
                    g.sample();
                });
            }
            assertTrue(reported.getMessage().startsWith("Member.failAt on a group of 4"), reported.getMessage());
            assertTrue(
                    reported.getMessage()
                            .endsWith(" failed for member 2 (" + two + "):"
                                    + " java.lang.IllegalStateException: member 2 fails on purpose"),
                    reported.getMessage());
            assertTrue(two.toString().endsWith("/g1"), "the member's node: " + two);
            assertEquals(
                    List.of(2),
                    reported.failures().stream().map(MemberFailure::index).toList());
            assertEquals(
                    List.of(0, 1, 2, 3),
                    Groups.view(g.sample()).members().stream().map(Sample::id).toList(),
                    "reported once: the next call is made");

            final OneWayFailure f = logged.poll(30, TimeUnit.SECONDS);
            assertEquals(
                    "Member.failAt on " + two + " (member 2 of 4)",
                    f.call(),
                    "logged on this console, and told to the listeners, naming the member and its node");
            assertInstanceOf(IllegalStateException.class, f.cause());
            assertTrue(logged.isEmpty(), "once: " + logged);
        }
    }

    @Test
    void shouldSayOnceWhyNoMemberCouldBeCreatedInAnyJvm() {
        final TroupeException e = assertThrows(
                TroupeException.class, () -> Groups.newGroup(Random.class, new Object[4][], new Node[] {n1, n2}));
        final String m = e.getMessage();
        assertTrue(
                m.startsWith("Could not create 4 of 4 members of a group of java.util.Random (the 0 created were"
                        + " terminated): members 0-3: org.troupe.core.exceptions.TroupeException: A peer asked to create a"
                        + " java.util.Random, which is not allowed here"),
                m);
        assertEquals(m.indexOf("A peer asked"), m.lastIndexOf("A peer asked"), "said once: " + m);
    }

    @Test
    void shouldChainCallsOnAResultGroupMemberByMember() throws Exception {
        final Member g = Groups.newGroup(Member.class, ids(4), new Node[] {n1, n2});
        Groups.view(g).method("slow", int.class).personalize((rank, size, args) -> new Object[] {rank == 3 ? 1500 : 0});
        final Sample slow = g.slow(0);
        final Group<Sample> view = Groups.view(slow);
        assertEquals(0, view.waitTheNth(0).id());
        view.waitAll();
        assertTrue(view.allArrived());
        assertEquals(
                List.of(0, 1, 2, 3), view.members().stream().map(Sample::id).toList());
    }

    @Test
    void shouldCombineAtTheCallerOrAlongATreeToTheSameValue() {
        final Member g = Groups.newGroup(Member.class, ids(16), new Node[] {n1, n2});
        final Group<Member> view = Groups.view(g);
        view.method("trace").combine(new TraceMerge(), GroupMethod.Reduction.AT_CALLER);
        final Trace flat = g.trace();
        view.method("trace").combine(new TraceMerge(), GroupMethod.Reduction.TREE);
        final Trace tree = g.trace();
        assertEquals(120, flat.sum());
        assertEquals(flat.sum(), tree.sum());
        assertEquals(15, flat.foldedIn().size());
        assertEquals(Set.of(ME), Set.copyOf(flat.foldedIn()), "at the caller, every reply came here");
        assertEquals(15, tree.foldedIn().size());
        assertFalse(tree.foldedIn().contains(ME), "in the tree, no reply was folded here: " + tree.foldedIn());
    }

    @Test
    void shouldKeepTheSurvivorsWhenAMembersJvmIsKilledMidCall() throws Exception {
        final Process doomed = jvms.start("g3", runtime.listen());
        final Node n3 = runtime.awaitNode("g3", Duration.ofSeconds(60));
        final Member g = Groups.newGroup(Member.class, ids(6), new Node[] {n1, n3});
        final Sample results = g.slow(1000);
        doomed.destroyForcibly();
        final Group<Sample> view = Groups.view(results);
        view.waitAll();
        final List<MemberFailure> failures = view.failures();
        assertEquals(
                List.of(1, 3, 5), failures.stream().map(MemberFailure::index).toList());
        failures.forEach(f -> assertInstanceOf(PeerFailedException.class, f.cause()));
        assertEquals(0, view.waitTheNth(0).id());
        final Group<Member> members = Groups.view(g);
        assertEquals(3, members.purgeDead(view).size());
        assertEquals(
                List.of(0, 2, 4),
                Groups.view(g.sample()).members().stream().map(Sample::id).toList());
    }

    @Test
    void shouldGiveSpmdRanksAndHoldBarriersAcrossTwoJvms() throws Exception {
        final Member g = Groups.newSpmdGroup(Member.class, ids(16), new Node[] {n1, n2});
        final Group<Member> view = Groups.view(g);
        view.method("whoAmI").combine((String a, String b) -> a + b, GroupMethod.Reduction.AT_CALLER);
        final StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            expected.append(i).append("/16/16;");
        }
        assertEquals(expected.toString(), g.whoAmI());
        view.method("meet").combine(GroupsAcrossJvmsTest::concat, GroupMethod.Reduction.AT_CALLER);
        for (int round = 0; round < 3; round++) {
            final long[] times = g.meet();
            assertEquals(32, times.length);
            long lastArrival = Long.MIN_VALUE;
            long firstLeave = Long.MAX_VALUE;
            for (int i = 0; i < times.length; i += 2) {
                lastArrival = Math.max(lastArrival, times[i]);
                firstLeave = Math.min(firstLeave, times[i + 1]);
            }
            assertTrue(lastArrival <= firstLeave, "round " + round + ": a member left before the last arrived");
        }
    }

    private static long[] concat(final long[] a, final long[] b) {
        final long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
