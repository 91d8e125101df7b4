package org.acme.pi;

/** What one worker is asked to do: throw {@code darts} darts with the random seed {@code seed}. */
public class Batch {
    private long darts;
    private long seed;

    public Batch() {
    }

    public Batch(final long darts, final long seed) {
        this.darts = darts;
        this.seed = seed;
    }

    public long darts() {
        return darts;
    }

    public long seed() {
        return seed;
    }
}
