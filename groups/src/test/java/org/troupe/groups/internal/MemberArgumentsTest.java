package org.troupe.groups.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which arguments each member of a group gets: broadcast, personalized or scattered. */
class MemberArgumentsTest {
    /** The type of the group called. */
    public interface Solver {
        void solve(int[] block, String tag);

        void step(Object part, String tag);
    }

    private static Method method(final String name) {
        for (final Method m : Solver.class.getMethods()) {
            if (m.getName().equals(name)) {
                return m;
            }
        }
        throw new AssertionError(name);
    }

    @Test
    void everyMemberSharesTheCallsArgumentsWhenBroadcast() {
        final Object[] args = {new int[] {1, 2}, "t"};
        final Object[][] perMember = MemberArguments.of(method("solve"), args, 3, MethodConfig.BROADCAST, false);
        assertEquals(3, perMember.length);
        for (final Object[] a : perMember) {
            assertSame(args, a);
        }
    }

    @Test
    void aPersonalizerGivesEachMemberItsOwnArgumentsFromACopy() {
        final Object[] args = {"whole", "t"};
        final MethodConfig config = MethodConfig.BROADCAST.withPersonalizer((rank, size, a) -> {
            a[0] = rank + "/" + size;
            return a;
        });
        final Object[][] perMember = MemberArguments.of(method("step"), args, 2, config, true);
        assertArrayEquals(new Object[] {"0/2", "t"}, perMember[0]);
        assertArrayEquals(new Object[] {"1/2", "t"}, perMember[1]);
        assertArrayEquals(new Object[] {"whole", "t"}, args, "the call's own arguments untouched");
    }

    @Test
    void aPersonalizerGivingTheWrongNumberOfArgumentsIsRefusedNamingTheMember() {
        final MethodConfig config = MethodConfig.BROADCAST.withPersonalizer((rank, size, a) -> rank == 1 ? null : a);
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> MemberArguments.of(method("step"), new Object[] {"x", "t"}, 2, config, false));
        assertEquals("The personalizer of step gave member 1 null; the method takes 2", e.getMessage());
    }

    @Test
    void anArrayForANonArrayParameterIsScatteredAndTheOtherArgumentsBroadcast() {
        final Object[] args = {new String[] {"a", "b"}, "t"};
        final Object[][] perMember = MemberArguments.of(method("step"), args, 2, MethodConfig.BROADCAST, true);
        assertArrayEquals(new Object[] {"a", "t"}, perMember[0]);
        assertArrayEquals(new Object[] {"b", "t"}, perMember[1]);
    }

    @Test
    void anArrayForAnArrayParameterIsBroadcastEvenInScatterMode() {
        final Object[] args = {new int[] {1, 2}, "t"};
        final Object[][] perMember = MemberArguments.of(method("solve"), args, 2, MethodConfig.BROADCAST, true);
        assertSame(args, perMember[0]);
        assertSame(args, perMember[1]);
    }

    @Test
    void aGroupArgumentIsScatteredAsItsMembers() {
        final Object parts = GroupHandler.newGroup(Runnable.class, List.of((Runnable) () -> {}, (Runnable) () -> {}));
        final List<Object> members = GroupHandler.of(parts).members();
        final Object[][] perMember =
                MemberArguments.of(method("step"), new Object[] {parts, "t"}, 2, MethodConfig.BROADCAST, true);
        assertSame(members.get(0), perMember[0][0]);
        assertSame(members.get(1), perMember[1][0]);
    }

    @Test
    void aScatteredArgumentOfTheWrongLengthIsRefused() {
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> MemberArguments.of(
                        method("step"),
                        new Object[] {new String[] {"a", "b", "c"}, "t"},
                        2,
                        MethodConfig.BROADCAST,
                        true));
        assertEquals("Argument 0 of step is scattered over 2 members but has 3 elements", e.getMessage());
    }
}
