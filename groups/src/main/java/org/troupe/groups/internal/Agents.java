package org.troupe.groups.internal;

import java.util.HashMap;
import java.util.Map;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;

/** The {@link GroupAgent} beside each member's JVM, made on first need and kept for this runtime's life. */
final class Agents {
    private static final Map<String, GroupAgent> AGENTS = new HashMap<>();

    private Agents() {}

    static synchronized GroupAgent beside(final Object member) {
        final Node node = ActiveObjects.nodeBeside(member);
        final String key = TroupeRuntime.get().id() + ">" + node.runtimeId();
        GroupAgent agent = AGENTS.get(key);
        if (agent == null) {
            agent = ActiveObjects.newActive(GroupAgent.class, null, node);
            AGENTS.put(key, agent);
        }
        return agent;
    }
}
