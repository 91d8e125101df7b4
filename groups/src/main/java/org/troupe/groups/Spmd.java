package org.troupe.groups;

import org.troupe.core.Futures;
import org.troupe.groups.internal.GroupHandler;
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
    private Spmd() {
    }

    /** This member's index in its SPMD group. */
    public static int rank() {
        return SpmdRegistry.current().rank();
    }

    public static int size() {
        return SpmdRegistry.current().size();
    }

    /** The SPMD group, as a typed group made in this member's JVM (its members are the same active objects). */
    public static <T> T group(final Class<T> type) {
        final SpmdInfo info = SpmdRegistry.current();
        if (!type.getName().equals(info.typeName())) {
            throw new IllegalArgumentException("This SPMD group is a group of " + info.typeName() + ", not of "
                + type.getName());
        }
        return GroupHandler.newGroup(type, java.util.Arrays.asList(info.members()));
    }

    /**
     * A total barrier: returns once every member of the group has called {@code barrier} with this name. The name
     * can be used again for the next round. Requests to this member wait in its queue meanwhile.
     */
    public static void barrier(final String name) {
        final SpmdInfo info = SpmdRegistry.current();
        Futures.waitFor(info.barriers().arrive(name, info.rank()));
    }
}
