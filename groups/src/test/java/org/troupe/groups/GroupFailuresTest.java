package org.troupe.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.core.ActiveObjects;
import org.troupe.core.OneWayFailure;
import org.troupe.core.Subscription;
import org.troupe.core.exceptions.CallFailedException;
import org.troupe.core.exceptions.FutureTimeoutException;
import org.troupe.core.exceptions.TouchedAt;
import org.troupe.core.exceptions.TroupeException;

/** What a user sees when members of a group fail: printed, located, reported once, said briefly, waited for. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GroupFailuresTest {
    @RegisterExtension
    final LocalNodes local = LocalNodes.defaultAnd("second");

    @AfterEach
    void stop() {
        Worker.gate.countDown(); // members still held would hold the shutdown
        Worker.gate = new CountDownLatch(0);
    }

    private Worker group(final int n) {
        final Object[][] params = new Object[n][];
        for (int i = 0; i < n; i++) {
            params[i] = new Object[] {i};
        }
        return Groups.newGroup(Worker.class, params, local.nodes());
    }

    private static TouchedAt touchedAt(final Throwable e) {
        return Arrays.stream(e.getSuppressed())
                .filter(TouchedAt.class::isInstance)
                .map(TouchedAt.class::cast)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no TouchedAt in " + e));
    }

    private static void assertTouchedHere(final TouchedAt at, final String method) {
        final StackTraceElement top = at.getStackTrace()[0];
        assertEquals(
                GroupFailuresTest.class.getName() + "." + method,
                top.getClassName() + "." + top.getMethodName(),
                "the first frame is the caller's line: " + Arrays.toString(at.getStackTrace()));
    }

    @Test
    void shouldPrintAResultGroupItsViewAndItsFailuresWithoutWaitingOrRethrowing() throws Exception {
        final Worker g = group(3);
        final Value r = g.fail(1);
        final Group<Value> view = Groups.view(r);
        view.waitAll();
        final String failed = "<failed: java.lang.IllegalStateException: member 1 fails on purpose>";
        assertEquals("Group<Value>[ok=0, " + failed + ", ok=2]", r.toString());
        assertEquals(r.toString(), view.toString());
        Worker.gate = new CountDownLatch(1);
        Groups.view(g).method("gated", boolean.class).personalize((rank, size, args) -> new Object[] {rank == 2});
        final Value held = g.gated(false); // member 2 is held at the gate until the end
        Groups.view(held).waitN(2);
        assertEquals("Group<Value>[gated0=0, gated1=1, <awaited>]", held.toString(), "a member still awaited");

        final Worker one = Groups.view(g).get(1);
        final String failures = "failures: " + view.failures();
        assertEquals(
                "failures: [member 1 (" + one + "): java.lang.IllegalStateException: member 1 fails on purpose]",
                failures);
        assertSame(one, view.failures().getFirst().member(), "the member called, not its failed future");
        assertTrue(one.toString().endsWith("/second"), "it names the member's node: " + one);
    }

    @Test
    void shouldNameTheMemberAndTheCallersLineWhereAFailureIsRethrown() {
        final Worker g = group(3);
        final Group<Value> r = Groups.view(g.fail(1));
        final IllegalStateException waited = assertThrows(IllegalStateException.class, () -> waitForMember(r));
        final TouchedAt at = touchedAt(waited);
        final String one = Groups.view(g).get(1).toString();
        assertEquals(
                "Worker.fail on " + one + " (member 1 of 3) failed; its outcome was touched here", at.getMessage());
        assertTouchedHere(at, "waitForMember");

        final IllegalStateException touched = assertThrows(IllegalStateException.class, () -> touchMember(r));
        assertTrue(
                Arrays.stream(touched.getSuppressed())
                        .map(t -> t.getStackTrace()[0])
                        .anyMatch(top -> top.getClassName().equals(GroupFailuresTest.class.getName())
                                && top.getMethodName().equals("touchMember")),
                "touched again on another line: " + Arrays.toString(touched.getSuppressed()));
    }

    private static Value waitForMember(final Group<Value> r) {
        return r.waitTheNth(1);
    }

    private static int touchMember(final Group<Value> r) {
        return r.get(1).number();
    }

    @Test
    void shouldNameTheFailedMembersOfACombinedReplyAtTheCallerAndAlongATree() {
        final Worker g = group(4);
        final Group<Worker> view = Groups.view(g);
        view.method("refuseSome").combine(new Sum(), GroupMethod.Reduction.AT_CALLER);
        final GroupCallException atCaller = assertThrows(GroupCallException.class, () -> combine(g));
        assertEquals(
                "Worker.refuseSome on a group of 4 failed for 3 members: members 1, 3:"
                        + " java.lang.IllegalStateException: odd members refuse; member 2 (" + view.get(2) + "):"
                        + " java.lang.IllegalArgumentException: member 2 refuses its own way",
                atCaller.getMessage());
        assertEquals(
                List.of(1, 2, 3),
                atCaller.failures().stream().map(MemberFailure::index).toList());
        assertTouchedHere(touchedAt(atCaller.getCause()), "combine");

        view.method("refuseSome").combine(new Sum(), GroupMethod.Reduction.TREE);
        final GroupCallException tree = assertThrows(GroupCallException.class, () -> combine(g));
        assertTrue(
                tree.getMessage()
                        .startsWith(
                                "Worker.refuseSome on a group of 4, combined along a tree, failed for" + " member "),
                tree.getMessage());
        final MemberFailure first = tree.failures().getFirst();
        assertTrue(
                tree.getMessage().contains("member " + first.index() + " (" + view.get(first.index()) + "): "),
                tree.getMessage());
        assertTouchedHere(touchedAt(tree), "combine");
    }

    private static int combine(final Worker g) {
        return g.refuseSome();
    }

    @Test
    void shouldSayAFailureSharedByMembersOnce() {
        final Worker g = group(4);
        Groups.view(g).method("refuse").combine(new Sum(), GroupMethod.Reduction.AT_CALLER);
        final GroupCallException e = assertThrows(GroupCallException.class, g::refuse);
        final String why = "java.lang.IllegalStateException: A peer asked to create a org.acme.pi.Worker, which is"
                + " not allowed here; allow it with troupe.serialization.allowedPackages";
        assertEquals("Worker.refuse on a group of 4 failed for members 0-3: " + why, e.getMessage());
        assertEquals(4, e.failures().size());

        final Object[][] params = {{"a"}, {"b"}, {"c"}};
        final TroupeException created =
                assertThrows(TroupeException.class, () -> Groups.newGroup(Worker.class, params, local.nodes()));
        final String cause = created.getCause().toString();
        assertEquals(
                "Could not create 3 of 3 members of a group of " + Worker.class.getName() + " (the 0 created"
                        + " were terminated): members 0-2: " + cause,
                created.getMessage());
        assertEquals("0-3, 5, 7-8", FailureSummary.ranges(new int[] {0, 1, 2, 3, 5, 7, 8}));
        // An exception not rebuilt here names the member's node in its message: said once all the same.
        assertEquals(
                "members 0-1: org.acme.Refused: boom",
                FailureSummary.of(List.of(
                        new FailureSummary.Entry(
                                0,
                                null,
                                new CallFailedException(
                                        "creating a W on node n1 threw" + " org.acme.Refused: boom",
                                        "org.acme.Refused",
                                        null)),
                        new FailureSummary.Entry(
                                1,
                                null,
                                new CallFailedException(
                                        "creating a W on node n2 threw" + " org.acme.Refused: boom",
                                        "org.acme.Refused",
                                        null)))));
    }

    @Test
    void shouldThrowAOneWayCallsLaterFailuresAtTheGroupsNextCallOnce() throws Exception {
        final LinkedBlockingQueue<OneWayFailure> logged = new LinkedBlockingQueue<>();
        try (Subscription s = ActiveObjects.onOneWayFailure(logged::add)) {
            final Worker g = group(4);
            final Worker two = Groups.view(g).get(2);
            Worker.gate = new CountDownLatch(1);
            g.failAfterGate(2); // returns at once: the members wait at the gate, and member 2 will throw
            final Value after = g.value(0);
            Worker.gate.countDown();
            Groups.view(after).waitAll(); // member 2 served the one-way call first: its failure is back

            final GroupCallException e = assertThrows(GroupCallException.class, () -> g.value(1));
            assertEquals(
                    "Worker.failAfterGate on a group of 4 (an earlier one-way call; this Worker.value was not"
                            + " made) failed for member 2 (" + two
                            + "): java.lang.IllegalStateException: member 2 fails on"
                            + " purpose, one way",
                    e.getMessage());
            assertEquals(
                    List.of(2), e.failures().stream().map(MemberFailure::index).toList());
            assertSame(two, e.failures().getFirst().member());
            assertEquals(
                    List.of(1, 101, 201, 301),
                    Groups.view(g.value(1)).members().stream()
                            .map(Value::number)
                            .toList(),
                    "reported once: the next call is made");

            final OneWayFailure f = logged.poll(30, TimeUnit.SECONDS);
            assertEquals(
                    "Worker.failAfterGate on " + two + " (member 2 of 4)",
                    f.call(),
                    "logged, and told to the listeners, with the member and its node");
            assertInstanceOf(IllegalStateException.class, f.cause());

            // A one-way call is made even when earlier failures are thrown on it.
            Worker.gate = new CountDownLatch(1);
            g.failAfterGate(3);
            final Value later = g.value(0);
            Worker.gate.countDown();
            Groups.view(later).waitAll();
            final GroupCallException made = assertThrows(GroupCallException.class, () -> g.take("after"));
            assertTrue(
                    made.getMessage()
                            .contains("(an earlier one-way call; this Worker.take was made) failed for" + " member 3"),
                    made.getMessage());
            assertTrue(Groups.view(g.received()).members().stream()
                    .allMatch(v -> v.tag().equals("after")));
        }
    }

    @Test
    void shouldGiveUpGroupWaitsAfterATimeoutNamingTheMembersStillAwaited() throws Exception {
        final Worker g = group(3);
        Worker.gate = new CountDownLatch(1);
        Groups.view(g).method("gated", boolean.class).personalize((rank, size, args) -> new Object[] {rank != 0});
        final Group<Value> r = Groups.view(g.gated(true));
        assertEquals(0, r.waitTheNth(0).number());
        final Group<Worker> members = Groups.view(g);
        final String awaited = "awaited: member 1 (" + members.get(1) + "), member 2 (" + members.get(2) + ")";

        final FutureTimeoutException all =
                assertThrows(FutureTimeoutException.class, () -> r.waitAll(Duration.ofMillis(50)));
        assertEquals(
                "waitAll timed out after 50 ms on the results of Worker.gated on a group of 3: 1 of 3 members"
                        + " arrived; " + awaited,
                all.getMessage());
        final FutureTimeoutException two =
                assertThrows(FutureTimeoutException.class, () -> r.waitN(2, Duration.ofMillis(50)));
        assertTrue(
                two.getMessage().startsWith("waitN(2) timed out after 50 ms on ")
                        && two.getMessage().endsWith(awaited),
                two.getMessage());
        final FutureTimeoutException nth =
                assertThrows(FutureTimeoutException.class, () -> r.waitTheNth(1, Duration.ofMillis(50)));
        assertEquals(
                "No result from Worker.gated on " + members.get(1) + " (member 1 of 3) within 50 ms", nth.getMessage());
        assertEquals(0, r.waitAny(Duration.ofMillis(50)));

        final Group<Value> none = Groups.view(Groups.of(Value.class, r.get(1), r.get(2)));
        final FutureTimeoutException any =
                assertThrows(FutureTimeoutException.class, () -> none.waitAny(Duration.ofMillis(50)));
        assertTrue(
                any.getMessage()
                        .startsWith("waitAny timed out after 50 ms on Group<Value>: 0 of 2 members"
                                + " arrived; awaited: member 0 (the result of Worker.gated on "),
                any.getMessage());

        Worker.gate.countDown();
        r.waitAll(Duration.ofSeconds(30));
        assertEquals(2, r.waitTheNth(2, Duration.ofSeconds(30)).number());
        none.waitN(2, Duration.ofSeconds(30));
    }

    @Test
    void shouldThrowAtTheCallArgumentsThatCannotBeSentAndReportThemNoOtherWay() throws Exception {
        final Worker g = group(3);
        final LinkedBlockingQueue<OneWayFailure> reported = new LinkedBlockingQueue<>();
        try (Subscription s = ActiveObjects.onOneWayFailure(reported::add)) {
            final Runnable lambda = () -> {};
            final GroupCallException withResult = assertThrows(
                    GroupCallException.class,
                    () -> g.keep(lambda),
                    "a call with results throws at once, as on one active object, not in the result group's slots");
            assertTrue(
                    withResult
                            .getMessage()
                            .startsWith("Worker.keep on a group of 3 (its arguments could not be"
                                    + " sent) failed for members 0-2: "),
                    withResult.getMessage());
            assertTrue(withResult.getMessage().contains("lambdas cannot be sent"), withResult.getMessage());
            assertEquals(3, withResult.failures().size());

            final GroupCallException oneWay = assertThrows(GroupCallException.class, () -> g.take(new Thread()));
            assertTrue(oneWay.getMessage().contains("is a local resource and cannot be sent"), oneWay.getMessage());
            final Group<Value> after = Groups.view(g.value(1));
            after.waitAll(Duration.ofSeconds(30));
            assertEquals(List.of(), after.failures(), "the group is usable after: nothing was kept to throw again");
        }
        assertTrue(
                reported.isEmpty(),
                "a call refused at the caller is thrown, not also reported as a one-way" + " call's failure: "
                        + reported);
    }
}
