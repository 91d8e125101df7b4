package org.troupe.groups.internal;

import java.util.List;
import org.troupe.core.spi.WireClasses;
import org.troupe.groups.GroupCallException;

/** The groups layer's own classes that cross between runtimes. */
public final class GroupWireClasses implements WireClasses {
    @Override
    public List<Class<?>> classes() {
        return List.of(
                GroupAgent.class,
                BarrierKeeper.class,
                TreeStep.class,
                SpmdInfo.class,
                GroupRecipe.class,
                GroupCallException.class);
    }
}
