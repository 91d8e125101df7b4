package org.troupe.groups;

/**
 * Folds two members' results into one, for combined replies ({@link GroupMethod#combine}). It should be
 * associative: replies are folded in member order, but in a tree their grouping depends on the tree's shape. For
 * {@link GroupMethod.Reduction#TREE} it travels to the members' JVMs, so it must be a named class of an allowed
 * package (not a lambda); at the caller ({@link GroupMethod.Reduction#AT_CALLER}) anything goes.
 *
 * @param <R> the method's result type (boxed for primitives)
 */
@FunctionalInterface
public interface Combiner<R> {
    R combine(R first, R second);
}
