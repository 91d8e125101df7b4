package org.troupe.bench.serialization;

import java.util.Optional;
import java.util.SplittableRandom;

/** A cyclic doubly linked list of {@link DNode}s ({@code last.next == first}, {@code first.prev == last}). */
final class DListCase implements BenchCase {
    private final int length;

    DListCase(final int length) {
        this.length = length;
    }

    @Override
    public String name() {
        return "dlist-" + length;
    }

    @Override
    public Object build() {
        final SplittableRandom random = new SplittableRandom(13);
        final DNode first = new DNode();
        first.value = random.nextDouble();
        DNode last = first;
        for (int i = 1; i < length; i++) {
            final DNode node = new DNode();
            node.value = random.nextDouble();
            node.prev = last;
            last.next = node;
            last = node;
        }
        last.next = first;
        first.prev = last;
        return first;
    }

    @Override
    public Optional<String> difference(final Object original, final Object copy) {
        if (!(copy instanceof DNode)) {
            return Optional.of("expected a DNode but got " + Differences.typeOf(copy));
        }
        final DNode firstCopy = (DNode) copy;
        DNode o = (DNode) original;
        DNode c = firstCopy;
        for (int i = 0; i < length; i++, o = o.next, c = c.next) {
            if (c == null) {
                return Optional.of("node " + i + " of the copy is missing");
            }
            if (c == o) {
                return Optional.of("node " + i + " is shared with the original, not copied");
            }
            if (Double.compare(o.value, c.value) != 0) {
                return Optional.of("node " + i + " has another value");
            }
            // Identity, not equality: the copy must have the same shape, with each node once.
            if (c.next == null || c.next.prev != c) {
                return Optional.of("node " + i + " of the copy is not the prev of its next");
            }
        }
        return c == firstCopy ? Optional.empty() : Optional.of("the copy is not a cycle of " + length + " nodes");
    }

    @Override
    public boolean references() {
        return true;
    }
}
