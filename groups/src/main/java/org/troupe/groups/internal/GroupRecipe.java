package org.troupe.groups.internal;

import java.util.Arrays;
import org.troupe.core.spi.PortableHandler;

/**
 * A group as it crosses the wire: its members, in order, and its scatter mode. The receiving runtime makes a new
 * group of the same members; names and per-method settings stay with the sender's group.
 */
public final class GroupRecipe implements PortableHandler.Recipe {
    private final Object[] members;
    private final boolean scatter;

    GroupRecipe(final Object[] members, final boolean scatter) {
        this.members = members;
        this.scatter = scatter;
    }

    @Override
    public Object proxy(final Class<?> type) {
        final Object group = GroupHandler.newGroup(type, Arrays.asList(members));
        GroupHandler.of(group).setScatter(scatter);
        return group;
    }
}
