package org.troupe.bench.serialization;

import java.util.Optional;
import java.util.SplittableRandom;

/** A complete binary tree of {@link TreeNode}s: many small objects, shallow (depth = {@code levels}). */
final class TreeCase implements BenchCase {
    private final int levels;

    TreeCase(final int levels) {
        this.levels = levels;
    }

    @Override
    public String name() {
        return "tree-" + ((1 << levels) - 1);
    }

    @Override
    public Object build() {
        return build(new SplittableRandom(11), 0, 0);
    }

    /** Node {@code id} in heap order: its children are {@code 2 id + 1} and {@code 2 id + 2}. */
    private TreeNode build(final SplittableRandom random, final int id, final int level) {
        final TreeNode node = new TreeNode();
        // A mix of small and full-range ints, so variable-length int encodings are neither flattered nor punished.
        node.id = id;
        node.level = level;
        node.weight = random.nextInt();
        node.flags = random.nextInt(256);
        if (level + 1 < levels) {
            node.left = build(random, 2 * id + 1, level + 1);
            node.right = build(random, 2 * id + 2, level + 1);
        }
        return node;
    }

    @Override
    public Optional<String> difference(final Object original, final Object copy) {
        if (!(copy instanceof TreeNode)) {
            return Optional.of("expected a TreeNode but got " + Differences.typeOf(copy));
        }
        return difference((TreeNode) original, (TreeNode) copy);
    }

    private static Optional<String> difference(final TreeNode o, final TreeNode c) {
        if (o == null || c == null) {
            return o == c
                    ? Optional.empty()
                    : Optional.of("a child is " + (c == null ? "missing" : "extra") + " in the copy");
        }
        if (o == c) {
            return Optional.of("node " + o.id + " is shared with the original, not copied");
        }
        if (o.id != c.id || o.level != c.level || o.weight != c.weight || o.flags != c.flags) {
            return Optional.of("node " + o.id + " has other field values");
        }
        final Optional<String> left = difference(o.left, c.left);
        return left.isPresent() ? left : difference(o.right, c.right);
    }
}
