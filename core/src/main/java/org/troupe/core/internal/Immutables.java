package org.troupe.core.internal;

import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Set;
import org.troupe.core.spi.Proxied;

/** Which values can be shared between caller and callee without a copy. */
final class Immutables {
    private static final Set<Class<?>> VALUE_CLASSES = Set.of(
            String.class,
            Integer.class,
            Long.class,
            Double.class,
            Float.class,
            Short.class,
            Byte.class,
            Character.class,
            Boolean.class,
            BigInteger.class,
            BigDecimal.class);

    /** Records whose components are all immutable types (computed once per class). */
    private static final ClassValue<Boolean> IMMUTABLE_RECORDS = new ClassValue<>() {
        @Override
        protected Boolean computeValue(final Class<?> type) {
            for (final RecordComponent c : type.getRecordComponents()) {
                final Class<?> t = c.getType();
                if (!(t.isPrimitive()
                        || VALUE_CLASSES.contains(t)
                        || t.isEnum()
                        || (t.isRecord() && t != type && Boolean.TRUE.equals(IMMUTABLE_RECORDS.get(t))))) {
                    return false;
                }
            }
            return true;
        }
    };

    private Immutables() {}

    /** Whether instances of a class are immutable (computed once per class: asked for every argument of a call). */
    private static final ClassValue<Boolean> IMMUTABLE_CLASSES = new ClassValue<>() {
        @Override
        protected Boolean computeValue(final Class<?> type) {
            return VALUE_CLASSES.contains(type) || type.isEnum() || (type.isRecord() && IMMUTABLE_RECORDS.get(type));
        }
    };

    static boolean isImmutable(final Object value) {
        return value == null
                || value instanceof Proxied
                || value instanceof Enum<?>
                || IMMUTABLE_CLASSES.get(value.getClass());
    }
}
