package org.troupe.groups;

import org.troupe.core.exceptions.TroupeException;

/** An SPMD member: reports what {@link Spmd} tells it, and meets the others at a barrier. */
public class Ranked {
    public Ranked() {}

    public String whoAmI() {
        return Spmd.rank() + "/" + Spmd.size() + "/"
                + Groups.view(Spmd.group(Ranked.class)).size();
    }

    /** Waits for the combined replies of its own group: refused, as it would wait for itself. */
    public String askOwnGroup() {
        final Ranked group = Spmd.group(Ranked.class);
        Groups.view(group).method("whoAmI").combine((String x, String y) -> x + y, GroupMethod.Reduction.AT_CALLER);
        try {
            return group.whoAmI();
        } catch (TroupeException e) {
            return e.getMessage();
        }
    }

    /** Sleeps by rank, marks its arrival, waits at the barrier, marks its leaving: {arrived, left} in nanos. */
    public long[] meet(final int round) throws InterruptedException {
        Thread.sleep((Spmd.rank() * 7L) % 40);
        final long arrived = System.nanoTime();
        Spmd.barrier("meet");
        return new long[] {arrived, System.nanoTime()};
    }

    /** As {@link #meet}, at a neighbour barrier with the ranks on either side (in a ring). */
    public long[] meetNeighbours() throws InterruptedException {
        final int r = Spmd.rank();
        final int n = Spmd.size();
        Thread.sleep((r * 11L) % 30);
        final long arrived = System.nanoTime();
        Spmd.neighbourBarrier("ring", (r + n - 1) % n, (r + 1) % n);
        return new long[] {arrived, System.nanoTime()};
    }
}
