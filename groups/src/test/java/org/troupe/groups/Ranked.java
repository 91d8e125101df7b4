package org.troupe.groups;

/** An SPMD member: reports what {@link Spmd} tells it, and meets the others at a barrier. */
public class Ranked {
    public Ranked() {
    }

    public String whoAmI() {
        return Spmd.rank() + "/" + Spmd.size() + "/" + Groups.view(Spmd.group(Ranked.class)).size();
    }

    /** Sleeps by rank, marks its arrival, waits at the barrier, marks its leaving: {arrived, left} in nanos. */
    public long[] meet(final int round) throws InterruptedException {
        Thread.sleep((Spmd.rank() * 7L) % 40);
        final long arrived = System.nanoTime();
        Spmd.barrier("meet");
        return new long[] {arrived, System.nanoTime()};
    }
}
