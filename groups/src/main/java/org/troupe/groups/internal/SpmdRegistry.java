package org.troupe.groups.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.troupe.core.ActiveObjects;

/** The SPMD memberships of this JVM's active objects, keyed by their proxies (equal per active object). */
public final class SpmdRegistry {
    private static final Map<Object, SpmdInfo> MEMBERS = new ConcurrentHashMap<>();

    private SpmdRegistry() {}

    static void join(final Object member, final SpmdInfo info) {
        MEMBERS.put(member, info);
    }

    /** The SPMD membership of the active object whose code runs in this thread. */
    public static SpmdInfo current() {
        final Object self = ActiveObjects.self(Object.class);
        final SpmdInfo info = MEMBERS.get(self);
        if (info == null) {
            throw new IllegalStateException(self + " is not a member of an SPMD group (made by Groups.newSpmdGroup)");
        }
        return info;
    }
}
