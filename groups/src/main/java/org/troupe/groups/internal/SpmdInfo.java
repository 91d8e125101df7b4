package org.troupe.groups.internal;

/**
 * What a member of an SPMD group knows of it: its rank, the members (to rebuild the group in its own JVM), the
 * group's type, and the active object that keeps the group's barriers.
 */
public final class SpmdInfo {
    final int rank;
    final Object[] members;
    final String typeName;
    final BarrierKeeper barriers;

    SpmdInfo(final int rank, final Object[] members, final String typeName, final BarrierKeeper barriers) {
        this.rank = rank;
        this.members = members;
        this.typeName = typeName;
        this.barriers = barriers;
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return members.length;
    }

    public Object[] members() {
        return members.clone();
    }

    public String typeName() {
        return typeName;
    }

    public BarrierKeeper barriers() {
        return barriers;
    }

    SpmdInfo withRank(final int r) {
        return new SpmdInfo(r, members, typeName, barriers);
    }
}
