import org.troupe.core.spi.WireClasses;
import org.troupe.groups.internal.GroupWireClasses;

/** Typed groups over the Troupe core: result groups, scatter, SPMD groups and barriers. */
module org.troupe.groups {
    requires transitive org.troupe.core;

    exports org.troupe.groups;

    // The groups' agents and barrier keepers are active objects the core makes, proxies and serializes; their
    // messages (tree steps, recipes, GroupCallException) cross the wire.
    opens org.troupe.groups to
            org.troupe.serialization;
    opens org.troupe.groups.internal to
            org.troupe.core,
            org.troupe.serialization;

    provides WireClasses with
            GroupWireClasses;
}
