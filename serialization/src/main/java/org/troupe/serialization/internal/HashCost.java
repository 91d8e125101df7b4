package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.KryoException;
import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What hashing the keys of a message's hashed containers costs, counted before they are hashed. A set hashes its
 * elements as it is read, and a map its keys; the hash of a collection is that of everything in it, each part
 * counted as often as it is reached. So collections nested a few dozen deep, each holding the one below twice by
 * reference, take a few hundred bytes and 2^depth steps to hash: far below {@code maxDepth}, they would hold the
 * reading thread for ever. This walks a key as its hash will, one step per object reached, and refuses the message
 * once its keys pass {@link #MAX_STEPS}, long before the hash would.
 *
 * <p>It follows what the JDK's hashes follow: the elements of collections, the keys and values of maps and their
 * entries, and the components of records. A class of the program whose {@code hashCode} walks fields of its own is
 * not followed. Single-threaded, as the Kryo instance whose messages it counts.
 */
final class HashCost {
    /** Steps the keys of one message may take to hash: a fraction of a second, and far more than real keys take. */
    static final long MAX_STEPS = 1L << 26;

    /** The fields of a record's components of reference type (what its hash reads), or none if they cannot be. */
    private static final ClassValue<List<Field>> PARTS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(final Class<?> type) {
            final List<Field> parts = new ArrayList<>();
            for (final RecordComponent c : type.getRecordComponents()) {
                if (!c.getType().isPrimitive()) {
                    try {
                        final Field f = type.getDeclaredField(c.getName());
                        if (!f.trySetAccessible()) {
                            return List.of(); // a record of a module not open to this one: taken as one step
                        }
                        parts.add(f);
                    } catch (NoSuchFieldException e) {
                        return List.of();
                    }
                }
            }
            return List.copyOf(parts);
        }
    };

    private long left = MAX_STEPS;

    void beginMessage() {
        left = MAX_STEPS;
    }

    /** Counts the steps hashing {@code key} takes, before it is hashed; refuses the message past the bound. */
    void charge(final Object key) {
        walk(key);
    }

    private void walk(final Object o) {
        if (--left < 0) {
            throw new KryoException("the message's set elements and map keys would take more than " + MAX_STEPS
                    + " steps to hash (collections nested in them, each counted again where a reference reaches it"
                    + " again): refused before they are hashed; keys that cheap to hash, or a list instead of the"
                    + " set, go through");
        }
        if (o instanceof Collection<?> c) {
            for (final Object e : c) {
                walk(e);
            }
        } else if (o instanceof Map<?, ?> m) {
            for (final Map.Entry<?, ?> e : m.entrySet()) {
                walk(e.getKey());
                walk(e.getValue());
            }
        } else if (o instanceof Map.Entry<?, ?> e) {
            walk(e.getKey());
            walk(e.getValue());
        } else if (o instanceof Record r) {
            for (final Field part : PARTS.get(r.getClass())) {
                walk(component(part, r));
            }
        }
    }

    private static Object component(final Field field, final Record r) {
        try {
            return field.get(r);
        } catch (IllegalAccessException e) {
            return null;
        }
    }
}
