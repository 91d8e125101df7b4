package org.troupe.groups;

import org.troupe.core.Futures;
import org.troupe.groups.internal.SpmdInfo;
import org.troupe.groups.internal.SpmdRegistry;

/**
 * For the code of a member of an SPMD group ({@link Groups#newSpmdGroup}), run by the member's own thread: its
 * rank, the group's size, the group itself, and barriers.
 *
 * <pre>{@code
 * public void iterate() {
 *     exchangeBorders(Spmd.group(Domain.class));
 *     Spmd.barrier("borders");    // returns once every member has called it
 *     compute();
 * }
 * }</pre>
 */
public final class Spmd {
    private Spmd() {}

    /** This member's index in its SPMD group. */
    public static int rank() {
        return SpmdRegistry.current().rank();
    }

    public static int size() {
        return SpmdRegistry.current().size();
    }

    /** The SPMD group, as a typed group in this member's JVM (its members are the same active objects). */
    public static <T> T group(final Class<T> type) {
        final Object group = SpmdRegistry.current().group();
        if (!type.isInstance(group)) {
            throw new IllegalArgumentException("This SPMD group is a group of "
                    + Groups.view(group).type().getName() + ", not of " + type.getName());
        }
        return type.cast(group);
    }

    /**
     * A total barrier: returns once every member of the group has called {@code barrier} with this name. The name
     * can be used again for the next round. Requests to this member wait in its queue meanwhile.
     */
    public static void barrier(final String name) {
        final SpmdInfo info = SpmdRegistry.current();
        Futures.waitFor(info.barriers().arrive(name, info.rank()));
    }

    /**
     * A neighbour barrier: this member's k-th call with {@code name} returns once each of {@code neighbourRanks}
     * has called it (with this name) k times too; other members are not waited for. Its names are apart from
     * those of {@link #barrier}.
     */
    public static void neighbourBarrier(final String name, final int... neighbourRanks) {
        final SpmdInfo info = SpmdRegistry.current();
        Futures.waitFor(info.barriers().arriveAmong(name, info.rank(), neighbourRanks));
    }
}
