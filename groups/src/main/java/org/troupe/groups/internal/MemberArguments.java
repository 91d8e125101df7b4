package org.troupe.groups.internal;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * The arguments each member of a group gets for one call: those of the call on the group, the same for all
 * (broadcast); those its method's {@link org.troupe.groups.Personalizer} gives it; or, on a group in scatter mode,
 * the i-th element of each scattered argument for member i. An argument is scattered when it is a group (its
 * members) or an array given for a parameter that is not one; others are broadcast all the same.
 */
final class MemberArguments {
    private MemberArguments() {}

    /**
     * One argument array per member of a group of {@code n}, in member order, for a call of {@code m} with
     * {@code args}; members given the same arguments share one array. Throws {@link IllegalArgumentException} when a
     * personalizer gives a member the wrong number of arguments or a scattered argument does not have {@code n}
     * elements.
     */
    static Object[][] of(
            final Method m, final Object[] args, final int n, final MethodConfig config, final boolean scatter) {
        final Object[][] perMember = new Object[n][];
        if (config.personalizer() != null) {
            for (int i = 0; i < n; i++) {
                final Object[] a = config.personalizer().argumentsFor(i, n, args.clone());
                if (a == null || a.length != m.getParameterCount()) {
                    throw new IllegalArgumentException("The personalizer of " + m.getName() + " gave member " + i
                            + " " + (a == null ? "null" : a.length + " arguments") + "; the method takes "
                            + m.getParameterCount());
                }
                perMember[i] = a;
            }
            return perMember;
        }
        Arrays.fill(perMember, args);
        if (!scatter) {
            return perMember;
        }
        final Class<?>[] params = m.getParameterTypes();
        for (int j = 0; j < args.length; j++) {
            final Object[] elements = scattered(args[j], params[j]);
            if (elements == null) {
                continue;
            }
            if (elements.length != n) {
                throw new IllegalArgumentException("Argument " + j + " of " + m.getName() + " is scattered over " + n
                        + " members but has " + elements.length + " elements");
            }
            for (int i = 0; i < n; i++) {
                if (perMember[i] == args) {
                    perMember[i] = args.clone();
                }
                perMember[i][j] = elements[i];
            }
        }
        return perMember;
    }

    /** The elements of a scattered argument: a group's members, or an array given for a non-array parameter. */
    private static Object[] scattered(final Object arg, final Class<?> param) {
        final GroupHandler g = GroupHandler.of(arg);
        if (g != null) {
            return g.members().toArray();
        }
        if (arg == null || !arg.getClass().isArray() || param.isArray()) {
            return null;
        }
        final Object[] elements = new Object[Array.getLength(arg)];
        for (int i = 0; i < elements.length; i++) {
            elements[i] = Array.get(arg, i);
        }
        return elements;
    }
}
