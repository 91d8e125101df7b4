package org.troupe.apps.jem3d;

import java.util.List;
import org.troupe.core.spi.WireClasses;

/**
 * The classes Jem3D's active objects and messages are made of: found by every runtime that has Jem3D on its class
 * path, so that neither {@code bin/jem3d}, nor its node JVMs, nor a program calling {@link Jem3dRun} has to allow
 * Jem3D's package on the wire.
 */
public final class Jem3dWireClasses implements WireClasses {
    /** For {@link java.util.ServiceLoader}: the module provides {@link WireClasses} with this class. */
    public Jem3dWireClasses() {}

    @Override
    public List<Class<?>> classes() {
        return List.of(
                Subdomain.class,
                Collector.class,
                Keeper.class,
                SubdomainPlan.class,
                SubdomainResult.class,
                RunStatus.class,
                Mesh.class,
                Block.class,
                CavityMode.class);
    }
}
