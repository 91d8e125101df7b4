package org.acme.pi;

import java.util.SplittableRandom;

/**
 * A worker of the group: an active object (public, not final, with a public constructor), so each runs on its own
 * thread on its node, and every call on it returns at once with a future.
 */
public class Worker {
    private int index;
    private boolean broken;

    public Worker() {
    }

    /** Member {@code index} of the group; {@code broken}: it throws instead of working, to show a failure. */
    public Worker(final int index, final boolean broken) {
        this.index = index;
        this.broken = broken;
    }

    /** Throws the batch's darts at the unit square and counts those inside the quarter disc. */
    public Tally throwDarts(final Batch batch) {
        if (broken) {
            throw new IllegalStateException("worker " + index + " is broken (--fail " + index + ")");
        }
        // In a node JVM, this line reaches the launching console prefixed with the node's name.
        System.out.println("worker " + index + ": throwing " + batch.darts() + " darts");
        final SplittableRandom random = new SplittableRandom(batch.seed());
        long inside = 0;
        for (long i = 0; i < batch.darts(); i++) {
            final double x = random.nextDouble();
            final double y = random.nextDouble();
            if (x * x + y * y <= 1.0) {
                inside++;
            }
        }
        return new Tally(inside, batch.darts());
    }

}
