package org.troupe.groups;

/** A named combiner, so it can travel for tree reductions. */
public class Sum implements Combiner<Integer> {
    @Override
    public Integer combine(final Integer first, final Integer second) {
        return first + second;
    }
}
