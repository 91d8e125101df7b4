package org.troupe.serialization.internal;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds where an object of a refused class sits in a message, to say so in the error: {@code Job.tasks[1].callback}.
 * Runs only after a message failed, so it may be slow: a breadth-first walk (the shortest path) over the fields of
 * the application's objects, the elements of object arrays and of the JDK's collections and maps, bounded in
 * objects; it never looks inside JDK classes, hidden classes, or objects that cross as a {@code WireForm}.
 */
public final class GraphPaths {
    private static final int MAX_OBJECTS = 100_000;

    /** One object reached, from the step before, through {@code edge} ({@code .field}, {@code [3]}). */
    private record Step(Object value, Step from, String edge, boolean field) {}

    private GraphPaths() {}

    /**
     * The path from {@code root} to an instance of the class named {@code className}, starting at the first object
     * reached through a field (so the containers that hold it, such as a call's argument array, are left out); null
     * if none is found or it is reached through elements alone.
     */
    public static String find(final Object root, final String className, final AllowList allowList) {
        if (root == null) {
            return null;
        }
        final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        final ArrayDeque<Step> queue = new ArrayDeque<>();
        queue.add(new Step(root, null, "", false));
        seen.add(root);
        while (!queue.isEmpty() && seen.size() < MAX_OBJECTS) {
            final Step step = queue.poll();
            if (step.value().getClass().getName().equals(className)) {
                return render(step);
            }
            try {
                for (final Step next : children(step, allowList)) {
                    if (seen.add(next.value())) {
                        queue.add(next);
                    }
                }
            } catch (RuntimeException e) {
                // a collection that fails to iterate, a field that cannot be read: look elsewhere
            }
        }
        return null;
    }

    private static List<Step> children(final Step step, final AllowList allowList) {
        final Object o = step.value();
        final Class<?> type = o.getClass();
        final List<Step> next = new ArrayList<>();
        if (o instanceof Object[] array) {
            for (int i = 0; i < array.length && next.size() < MAX_OBJECTS; i++) {
                add(next, array[i], step, "[" + i + "]", false);
            }
        } else if (o instanceof Collection<?> c && Unsendable.isJdk(type)) {
            int i = 0;
            for (final Object e : c) {
                if (next.size() >= MAX_OBJECTS) {
                    break;
                }
                add(next, e, step, "[" + i++ + "]", false);
            }
        } else if (o instanceof Map<?, ?> m && Unsendable.isJdk(type)) {
            int i = 0;
            for (final Map.Entry<?, ?> e : m.entrySet()) {
                if (next.size() >= MAX_OBJECTS) {
                    break;
                }
                add(next, e.getKey(), step, ".keySet()[" + i++ + "]", false);
                add(next, e.getValue(), step, "[" + label(e.getKey()) + "]", false);
            }
        } else if (!Unsendable.isJdk(type) && !type.isHidden() && !type.isArray() && !allowList.replaces(type)) {
            for (Class<?> c = type; c != null && !Unsendable.isJdk(c); c = c.getSuperclass()) {
                for (final Field f : c.getDeclaredFields()) {
                    final int mods = f.getModifiers();
                    if (!Modifier.isStatic(mods)
                            && !Modifier.isTransient(mods)
                            && !f.getType().isPrimitive()
                            && f.trySetAccessible()) {
                        add(next, readField(f, o), step, "." + f.getName(), true);
                    }
                }
            }
        }
        return next;
    }

    private static Object readField(final Field f, final Object o) {
        try {
            return f.get(o);
        } catch (IllegalAccessException e) {
            return null;
        }
    }

    private static void add(
            final List<Step> next, final Object value, final Step from, final String edge, final boolean field) {
        if (value != null) {
            next.add(new Step(value, from, edge, field));
        }
    }

    private static String label(final Object key) {
        if (key instanceof String s) {
            return '"' + s + '"';
        }
        // Only the JDK's own texts: an application's toString may block or throw, and this runs on a failed send.
        if (key instanceof Enum<?> e) {
            return e.name();
        }
        return key instanceof Integer
                        || key instanceof Long
                        || key instanceof Short
                        || key instanceof Byte
                        || key instanceof Character
                        || key instanceof Boolean
                ? String.valueOf(key)
                : "?";
    }

    /** {@code Job.tasks[1].callback}: from the object whose field leads to the target, on. */
    private static String render(final Step target) {
        final List<Step> steps = new ArrayList<>();
        for (Step s = target; s.from() != null; s = s.from()) {
            steps.add(s);
        }
        Collections.reverse(steps);
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).field()) {
                final Class<?> owner = steps.get(i).from().value().getClass();
                final StringBuilder path =
                        new StringBuilder(owner.getSimpleName().isEmpty() ? owner.getName() : owner.getSimpleName());
                for (final Step s : steps.subList(i, steps.size())) {
                    path.append(s.edge());
                }
                return path.toString();
            }
        }
        return null;
    }
}
