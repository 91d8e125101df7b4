package org.troupe.groups.internal;

import java.util.Arrays;
import org.troupe.groups.Combiner;

/**
 * A subtree of a tree reduction, as it travels to the JVM of its first member: the members it covers, the agent
 * beside each, the method (by name and parameter types, resolved against each member's class) and each member's
 * arguments. The first member is the subtree's root.
 */
public final class TreeStep {
    /** The index in the group of this step's first member, and the group's size: for failure messages. */
    final int first;

    final int groupSize;
    final Object[] members;
    final Object[] agents;
    final String methodName;
    final String[] parameterTypes;
    final Object[][] args;
    final Combiner<Object> combiner;

    TreeStep(
            final int first,
            final int groupSize,
            final Object[] members,
            final Object[] agents,
            final String methodName,
            final String[] parameterTypes,
            final Object[][] args,
            final Combiner<Object> combiner) {
        this.first = first;
        this.groupSize = groupSize;
        this.members = members;
        this.agents = agents;
        this.methodName = methodName;
        this.parameterTypes = parameterTypes;
        this.args = args;
        this.combiner = combiner;
    }

    int size() {
        return members.length;
    }

    /** Members {@code from} (inclusive) to {@code to} (exclusive), as a step of their own. */
    TreeStep slice(final int from, final int to) {
        return new TreeStep(
                first + from,
                groupSize,
                Arrays.copyOfRange(members, from, to),
                Arrays.copyOfRange(agents, from, to),
                methodName,
                parameterTypes,
                Arrays.copyOfRange(args, from, to),
                combiner);
    }
}
