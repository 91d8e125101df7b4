package org.acme.pi;

/**
 * How many of a worker's darts fell inside the quarter disc. Not final, so that a call returning it answers with a
 * future at once (a final class would make the call wait for its result).
 */
public class Tally {
    private long inside;
    private long darts;

    public Tally() {
    }

    public Tally(final long inside, final long darts) {
        this.inside = inside;
        this.darts = darts;
    }

    public long inside() {
        return inside;
    }

    public long darts() {
        return darts;
    }

    /** Both tallies together: how a group's replies are combined into one. */
    public Tally plus(final Tally other) {
        return new Tally(inside + other.inside, darts + other.darts);
    }

    public double pi() {
        return 4.0 * inside / darts;
    }

    @Override
    public String toString() {
        return inside + "/" + darts;
    }
}
