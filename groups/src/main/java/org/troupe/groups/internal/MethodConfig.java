package org.troupe.groups.internal;

import org.troupe.groups.Combiner;
import org.troupe.groups.Personalizer;

/** How one method is called on one group: null personalizer means broadcast, null combiner one result each. */
public record MethodConfig(Personalizer personalizer, Combiner<?> combiner, boolean tree) {
    public static final MethodConfig BROADCAST = new MethodConfig(null, null, false);

    public MethodConfig withPersonalizer(final Personalizer p) {
        return new MethodConfig(p, combiner, tree);
    }

    public MethodConfig withCombiner(final Combiner<?> c, final boolean inTree) {
        return new MethodConfig(personalizer, c, inTree);
    }
}
