package org.troupe.bench.core;

import java.io.Serializable;
import java.util.SplittableRandom;

/** A node of the border list a solver sends its neighbour: {@code {double[3] v; Border next}}. */
public class Border implements Serializable {
    double[] v;
    Border next;

    /** A list of {@code length} nodes with fixed pseudo-random values. */
    public static Border list(final int length) {
        final SplittableRandom random = new SplittableRandom(7);
        Border head = null;
        for (int i = 0; i < length; i++) {
            final Border node = new Border();
            node.v = new double[] {random.nextDouble(), random.nextDouble(), random.nextDouble()};
            node.next = head;
            head = node;
        }
        return head;
    }

    /** The number of nodes from this one on (iterative: the list is as deep as it is long). */
    public int length() {
        int n = 0;
        for (Border b = this; b != null; b = b.next) {
            n++;
        }
        return n;
    }
}
