package org.troupe.core.internal;

import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.List;

/** Picks the constructor that {@code ActiveObjects.newActive}'s arguments select, as a Java call would. */
public final class Constructors {
    private Constructors() {}

    /** The public constructor of {@code type} that takes {@code args}; exactly one must match. */
    public static Constructor<?> matching(final Class<?> type, final Object[] args) {
        final List<Constructor<?>> matches = new ArrayList<>();
        for (final Constructor<?> c : type.getConstructors()) {
            if (accepts(c.getParameterTypes(), args)) {
                matches.add(c);
            }
        }
        if (matches.size() == 1) {
            return matches.getFirst();
        }
        final StringBuilder given = new StringBuilder();
        for (final Object a : args) {
            given.append(given.isEmpty() ? "" : ", ")
                    .append(a == null ? "null" : a.getClass().getSimpleName());
        }
        throw new IllegalArgumentException((matches.isEmpty() ? "No" : "More than one") + " public constructor of "
                + type.getName() + " takes (" + given + ")"
                + (matches.isEmpty() ? "" : ": " + matches + "; pass arguments whose classes select one"));
    }

    private static boolean accepts(final Class<?>[] params, final Object[] args) {
        if (params.length != args.length) {
            return false;
        }
        for (int i = 0; i < params.length; i++) {
            final Class<?> p = params[i].isPrimitive()
                    ? MethodType.methodType(params[i]).wrap().returnType()
                    : params[i];
            if (args[i] == null ? params[i].isPrimitive() : !p.isInstance(args[i])) {
                return false;
            }
        }
        return true;
    }
}
