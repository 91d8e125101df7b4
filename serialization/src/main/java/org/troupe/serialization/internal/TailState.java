package org.troupe.serialization.internal;

/**
 * Shared by the generated serializers of one Kryo instance to walk chains iteratively.
 *
 * <p>A class whose last field refers to its own kind (a {@code next} field) is a chain. Instead of recursing into
 * that field, the serializer of the head runs a loop; each serializer it calls in the loop writes (or reads) its
 * object's other fields and hands its own tail back through this state. The bytes are the same as with recursion,
 * because the tail is always the last thing an object writes; only the stack stays flat, so a list of a million
 * nodes does not overflow it.
 */
final class TailState {
    /** Set just before the loop asks Kryo to write or read a tail; consumed by the next generated serializer. */
    boolean deferNext;
    /** The tail an object handed back instead of recursing, and the serializer that knows its class. */
    Object pendingValue;
    GeneratedSerializer<?> pendingOwner;
    boolean pending;

    Object takeValue() {
        final Object v = pendingValue;
        pendingValue = null;
        pending = false;
        return v;
    }

    void clear() {
        deferNext = false;
        pendingValue = null;
        pendingOwner = null;
        pending = false;
    }
}
