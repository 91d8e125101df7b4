package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;

/**
 * The state of the object graph being written or read, shared by the generated serializers of one Kryo instance.
 * Single-threaded, like the Kryo instance it belongs to.
 *
 * <p><b>Fast path.</b> When the message does not track references, generated serializers call each other (and
 * write class ids) directly instead of through Kryo's {@code writeObject}/{@code readObject}, which would add
 * reference and depth bookkeeping per object; this state keeps the depth count instead.
 *
 * <p><b>Chains.</b> A class whose last field refers to its own kind (a {@code next} field) is a chain. Instead of
 * recursing into that field, the serializer of the head runs a loop; each serializer it calls in the loop writes
 * (or reads) its object's other fields and hands its own tail back through this state. The bytes are the same as
 * with recursion, because the tail is always the last thing an object writes; only the stack stays flat, so a list
 * of a million nodes does not overflow it.
 */
final class GraphState {
    final SessionClassResolver classes;
    private final Kryo kryo;
    private final int maxDepth;

    /** Whether the current message tracks references (then every object goes through Kryo). */
    boolean references;
    /** Nesting of objects written or read through the fast path in the current message. */
    int depth;

    /** Set just before the loop asks for a tail to be written or read; consumed by the next generated serializer. */
    boolean deferNext;
    /** The tail an object handed back instead of recursing, and the serializer that knows its class (null if none). */
    Object pendingValue;

    GeneratedSerializer<?> pendingOwner;
    /** The class of the next link, already read by a run loop that stopped at it. */
    Registration stashed;
    /** What the keys of the message's hashed containers cost to hash, so far. */
    final HashCost hashCost = new HashCost();

    GraphState(final SessionClassResolver classes, final Kryo kryo, final int maxDepth) {
        this.classes = classes;
        this.kryo = kryo;
        this.maxDepth = maxDepth;
    }

    void enter() {
        // Objects read through Kryo (containers, the reference path) count in Kryo's own depth: the two add up.
        if (++depth + kryo.getDepth() > maxDepth) {
            throw new KryoException("Max depth exceeded: " + depth);
        }
    }

    Registration takeStashed() {
        final Registration r = stashed;
        stashed = null;
        return r;
    }

    Object takeValue() {
        final Object v = pendingValue;
        pendingValue = null;
        pendingOwner = null;
        return v;
    }

    void beginMessage(final boolean trackReferences) {
        references = trackReferences;
        depth = 0;
        deferNext = false;
        pendingValue = null;
        pendingOwner = null;
        stashed = null;
        hashCost.beginMessage();
    }
}
