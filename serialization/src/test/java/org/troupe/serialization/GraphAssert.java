package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;

/**
 * Compares a decoded object graph with the original one, field by field (test data types need no {@code equals}).
 * JDK values are compared with {@code equals}, collections element by element, arrays deeply, everything else by
 * its declared fields, superclasses included. With {@code sameSharing} the decoded graph must also have the same
 * shape: where the original reaches one object twice, so must the copy (cycles included).
 */
final class GraphAssert {
    private final boolean sameSharing;
    private final IdentityHashMap<Object, Object> seen = new IdentityHashMap<>();

    private GraphAssert(final boolean sameSharing) {
        this.sameSharing = sameSharing;
    }

    /** Equal values; sharing not checked (graphs without cycles only). */
    static void assertGraphEquals(final Object expected, final Object actual) {
        new GraphAssert(false).compare(expected, actual, "root");
    }

    /** Equal values and the same sharing of objects, cycles included. */
    static void assertSameGraph(final Object expected, final Object actual) {
        new GraphAssert(true).compare(expected, actual, "root");
    }

    private void compare(final Object expected, final Object actual, final String path) {
        if (expected == null || actual == null) {
            assertSame(expected, actual, path);
            return;
        }
        assertEquals(expected.getClass(), actual.getClass(), path + ": class");
        final Class<?> type = expected.getClass();
        if (isValue(type)) {
            assertEquals(expected, actual, path);
            return;
        }
        if (sameSharing) {
            final Object previous = seen.get(expected);
            if (previous != null) {
                assertSame(previous, actual, path + ": the original shares this object, the copy must too");
                return;
            }
            seen.put(expected, actual);
        }
        if (expected instanceof ArraySlice<?> es) {
            // Only the range crosses: compare the ranges, not the backing arrays.
            final ArraySlice<?> as = (ArraySlice<?>) actual;
            assertEquals(es.length(), as.length(), path + ".length()");
            compare(range(es), range(as), path + "[range]");
        } else if (type.isArray()) {
            final int n = Array.getLength(expected);
            assertEquals(n, Array.getLength(actual), path + ".length");
            for (int i = 0; i < n; i++) {
                compare(Array.get(expected, i), Array.get(actual, i), path + "[" + i + "]");
            }
        } else if (expected instanceof Set<?> es) {
            final Set<?> as = (Set<?>) actual;
            assertEquals(es.size(), as.size(), path + ".size()");
            for (final Object e : es) {
                if (!as.contains(e)) {
                    fail(path + ": decoded set lacks " + e);
                }
            }
        } else if (expected instanceof List<?> || expected instanceof Queue<?>) {
            final Collection<?> ec = (Collection<?>) expected;
            final Collection<?> ac = (Collection<?>) actual;
            assertEquals(ec.size(), ac.size(), path + ".size()");
            final Iterator<?> ei = ec.iterator();
            final Iterator<?> ai = ac.iterator();
            for (int i = 0; ei.hasNext(); i++) {
                compare(ei.next(), ai.next(), path + "[" + i + "]");
            }
        } else if (expected instanceof Map<?, ?> em) {
            final Map<?, ?> am = (Map<?, ?>) actual;
            assertEquals(em.size(), am.size(), path + ".size()");
            for (final Map.Entry<?, ?> e : em.entrySet()) {
                if (!am.containsKey(e.getKey())) {
                    fail(path + ": decoded map lacks key " + e.getKey());
                }
                compare(e.getValue(), am.get(e.getKey()), path + "[" + e.getKey() + "]");
            }
        } else {
            for (Class<?> c = type; c != null && c != Object.class && c != Record.class; c = c.getSuperclass()) {
                for (final Field f : c.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
                        continue;
                    }
                    f.setAccessible(true);
                    try {
                        compare(f.get(expected), f.get(actual), path + "." + c.getSimpleName() + "#" + f.getName());
                    } catch (IllegalAccessException e) {
                        throw new AssertionError(e);
                    }
                }
            }
        }
    }

    private static Object range(final ArraySlice<?> slice) {
        final Object copy = Array.newInstance(slice.array().getClass().getComponentType(), slice.length());
        System.arraycopy(slice.array(), slice.offset(), copy, 0, slice.length());
        return copy;
    }

    private static boolean isValue(final Class<?> type) {
        return type.isEnum()
                || (type.getSuperclass() != null && type.getSuperclass().isEnum())
                || type.getName().startsWith("java.lang.")
                || type.getName().startsWith("java.math.");
    }
}
