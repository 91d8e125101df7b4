package org.troupe.groups.internal;

import org.troupe.groups.Groups;

/** What a member of an SPMD group knows of it: its rank, the group, and the keeper of the group's barriers. */
public final class SpmdInfo {
    final int rank;
    final Object group;
    final BarrierKeeper barriers;

    SpmdInfo(final int rank, final Object group, final BarrierKeeper barriers) {
        this.rank = rank;
        this.group = group;
        this.barriers = barriers;
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return Groups.view(group).size();
    }

    /** The group, as a typed group of this member's JVM. */
    public Object group() {
        return group;
    }

    public BarrierKeeper barriers() {
        return barriers;
    }

    SpmdInfo withRank(final int r) {
        return new SpmdInfo(r, group, barriers);
    }
}
