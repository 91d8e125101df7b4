package org.troupe.core.spi;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The methods of a type that its proxies intercept, each with a fixed index: {@code equals}, {@code hashCode} and
 * {@code toString} first, then every public, non-final, non-static method, ordered by name and descriptor so that two
 * JVMs with the same class agree on the indices without talking about it.
 */
public final class MethodTable {
    public static final int EQUALS = 0;
    public static final int HASH_CODE = 1;
    public static final int TO_STRING = 2;

    private static final ClassValue<MethodTable> TABLES = new ClassValue<>() {
        @Override
        protected MethodTable computeValue(final Class<?> type) {
            return new MethodTable(type);
        }
    };

    private final Class<?> type;
    private final List<Method> methods;
    private final List<Method> notIntercepted;

    private MethodTable(final Class<?> type) {
        this.type = type;
        final Map<String, Method> byKey = new LinkedHashMap<>();
        final List<Method> finals = new ArrayList<>();
        for (final Method m : type.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.isBridge() || m.isSynthetic() || isObjectMethod(m)) {
                continue;
            }
            if (Modifier.isFinal(m.getModifiers())) {
                finals.add(m);
                continue;
            }
            // getMethods() may list an interface's method beside the class's override; the most specific wins.
            byKey.merge(
                    key(m),
                    m,
                    (a, b) -> a.getReturnType().isAssignableFrom(b.getReturnType())
                                    && a.getDeclaringClass().isAssignableFrom(b.getDeclaringClass())
                            ? b
                            : a);
        }
        final List<Method> sorted = new ArrayList<>(byKey.values());
        sorted.sort(Comparator.comparing(MethodTable::key));
        final List<Method> all = new ArrayList<>();
        try {
            all.add(Object.class.getMethod("equals", Object.class));
            all.add(Object.class.getMethod("hashCode"));
            all.add(Object.class.getMethod("toString"));
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
        all.addAll(sorted);
        this.methods = List.copyOf(all);
        finals.sort(Comparator.comparing(MethodTable::key));
        this.notIntercepted = List.copyOf(finals);
    }

    /** equals, hashCode and toString, wherever declared: they have fixed indices. */
    private static boolean isObjectMethod(final Method m) {
        return switch (m.getName()) {
            case "equals" -> m.getParameterCount() == 1 && m.getParameterTypes()[0] == Object.class;
            case "hashCode", "toString" -> m.getParameterCount() == 0;
            default -> m.getDeclaringClass() == Object.class;
        };
    }

    public static MethodTable of(final Class<?> type) {
        return TABLES.get(type);
    }

    private static String key(final Method m) {
        final StringBuilder b = new StringBuilder(m.getName()).append('(');
        for (final Class<?> p : m.getParameterTypes()) {
            b.append(p.descriptorString());
        }
        return b.append(')').toString();
    }

    public Class<?> type() {
        return type;
    }

    public int size() {
        return methods.size();
    }

    public Method method(final int index) {
        return methods.get(index);
    }

    public List<Method> methods() {
        return methods;
    }

    /** Public final methods: a proxy cannot intercept them, so calling one on a proxy runs on the proxy itself. */
    public List<Method> notIntercepted() {
        return notIntercepted;
    }

    /** The index of a method given by name and parameter types, or -1. */
    public int indexOf(final String name, final Class<?>... parameterTypes) {
        for (int i = 0; i < methods.size(); i++) {
            final Method m = methods.get(i);
            if (m.getName().equals(name) && Arrays.equals(m.getParameterTypes(), parameterTypes)) {
                return i;
            }
        }
        return -1;
    }

    /** Called by generated invokers for an index outside the table: the peer's class differs from ours. */
    public static RuntimeException noSuchMethod(final Class<?> type, final int index) {
        return new IllegalArgumentException("No method " + index + " in " + type.getName()
                + ": the two JVMs do not have the same version of the class");
    }
}
