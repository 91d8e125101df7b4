package org.troupe.groups.internal;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.CompletionException;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.TouchedAt;
import org.troupe.core.spi.Calls;
import org.troupe.groups.Combiner;

/**
 * Combined replies folded along a binomial tree through the members' JVMs: the caller sends one step to the agent
 * beside the first member and gets one reply; no member replies to the caller.
 */
final class TreeReduction {
    private static final Calls CALLS = TroupeRuntime.calls();

    private TreeReduction() {}

    @SuppressWarnings("unchecked")
    static Object run(final Method m, final Object[] members, final Object[][] args, final Combiner<?> combiner) {
        if (members.length == 0) {
            throw new IllegalStateException("Combining the replies of " + m.getName() + ": the group is empty");
        }
        final Object[] agents = new Object[members.length];
        for (int i = 0; i < members.length; i++) {
            if (!CALLS.isActiveObject(members[i])) {
                throw new IllegalArgumentException("A TREE reduction runs through the members' JVMs, and member " + i
                        + " (" + members[i] + ") is not an active object; use AT_CALLER for this group");
            }
            agents[i] = Agents.beside(members[i]);
        }
        final String[] params =
                Arrays.stream(m.getParameterTypes()).map(Class::getName).toArray(String[]::new);
        final TreeStep step = new TreeStep(
                0, members.length, members, agents, m.getName(), params, args, (Combiner<Object>) combiner);
        try {
            return ((GroupAgent) agents[0]).reduce(step).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                // A GroupCallException naming the member, made where it failed: add where it was waited for here.
                TouchedAt.addTo(r, describe(m.getDeclaringClass().getSimpleName() + ".", m.getName(), members.length));
                throw r;
            }
            throw e;
        }
    }

    /** "Worker.step on a group of 4, combined along a tree,": how failures of such a call begin. */
    static String describe(final String typePrefix, final String method, final int groupSize) {
        return typePrefix + method + " on a group of " + groupSize + ", combined along a tree,";
    }
}
