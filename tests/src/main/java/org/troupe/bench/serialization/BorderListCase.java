package org.troupe.bench.serialization;

import java.util.Arrays;
import java.util.Optional;
import java.util.SplittableRandom;

/** A singly linked list of {@link Node}s, each with a {@code double[3]}: long, thin and deep if recursed. */
final class BorderListCase implements BenchCase {
    private final int length;

    BorderListCase(final int length) {
        this.length = length;
    }

    @Override
    public String name() {
        return "border-list-" + length;
    }

    @Override
    public Object build() {
        final SplittableRandom random = new SplittableRandom(7);
        Node head = null;
        for (int i = 0; i < length; i++) {
            final Node node = new Node();
            node.v = new double[] {random.nextDouble(), random.nextDouble(), random.nextDouble()};
            node.next = head;
            head = node;
        }
        return head;
    }

    @Override
    public Optional<String> difference(final Object original, final Object copy) {
        if (!(copy instanceof Node)) {
            return Optional.of("expected a Node but got " + Differences.typeOf(copy));
        }
        // Iterative: a recursive comparison would be as deep as the list.
        Node o = (Node) original;
        Node c = (Node) copy;
        for (int i = 0; o != null; i++, o = o.next, c = c.next) {
            if (c == null) {
                return Optional.of("the copy ends after " + i + " nodes instead of " + length);
            }
            if (c == o || c.v == o.v) {
                return Optional.of("node " + i + " is shared with the original, not copied");
            }
            if (!Arrays.equals(o.v, c.v)) {
                return Optional.of("node " + i + " has other values");
            }
        }
        return c == null ? Optional.empty() : Optional.of("the copy is longer than " + length + " nodes");
    }
}
