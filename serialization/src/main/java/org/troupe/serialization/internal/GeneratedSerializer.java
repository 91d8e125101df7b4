package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import org.objenesis.instantiator.ObjectInstantiator;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;

/**
 * Base of the serializers {@link SerializerGenerator} makes, one hidden class per serialized class. The generated
 * part reads and writes the fields with plain field instructions, in a fixed order; this part walks chains
 * iteratively (see {@link TailState}) and holds what the generated code looks up lazily. Public only because the
 * hidden classes, defined in their target's package, must be able to extend it.
 *
 * @param <T> the serialized class
 */
public abstract class GeneratedSerializer<T> extends Serializer<T> {
    /**
     * What a generated serializer needs besides its code.
     *
     * @param nestedTypes declared types of the fields whose type is final (written without a class id), tail last
     * @param tailType declared type of the chain field, or null if the class is not a chain
     * @param tailFinal whether that type is final (no class id on the wire)
     * @param instantiator makes instances of classes without a no-argument constructor, or null
     */
    public record Setup(Class<?>[] nestedTypes, Class<?> tailType, boolean tailFinal,
                        ObjectInstantiator<?> instantiator, TailState tail) {
    }

    private final Class<?>[] nestedTypes;
    private final Serializer<?>[] nested;
    private final Class<?> tailType;
    private final boolean tailFinal;
    private final ObjectInstantiator<?> instantiator;
    private final TailState tail;

    protected GeneratedSerializer(final Setup setup) {
        this.nestedTypes = setup.nestedTypes();
        this.nested = new Serializer<?>[nestedTypes.length];
        this.tailType = setup.tailType();
        this.tailFinal = setup.tailFinal();
        this.instantiator = setup.instantiator();
        this.tail = setup.tail();
    }

    // --- Generated per class ---

    /** Writes every field but the chain field, and returns the chain field's value (null if none). */
    protected abstract Object writeFields(Kryo kryo, TroupeOutput out, Object object);

    /** Makes an instance, registers it as a reference, reads every field but the chain field, and returns it. */
    protected abstract Object readFields(Kryo kryo, TroupeInput in);

    /** Sets the chain field of {@code object}. */
    protected abstract void setTail(Object object, Object value);

    // --- Called by generated code ---

    /** The serializer of the {@code index}-th final-typed field, looked up once (lazily, as types may recurse). */
    protected final Serializer<?> nested(final Kryo kryo, final int index) {
        Serializer<?> s = nested[index];
        if (s == null) {
            s = kryo.getSerializer(nestedTypes[index]);
            nested[index] = s;
        }
        return s;
    }

    protected final Class<?> nestedType(final int index) {
        return nestedTypes[index];
    }

    protected final Object newInstance() {
        return instantiator.newInstance();
    }

    // --- Kryo entry points ---

    @Override
    public final void write(final Kryo kryo, final Output output, final T object) {
        final TailState st = tail;
        final boolean deferred = st.deferNext;
        st.deferNext = false;
        final Object value = writeFields(kryo, (TroupeOutput) output, object);
        if (tailType == null) {
            return;
        }
        if (deferred) {
            st.pendingValue = value;
            st.pendingOwner = this;
            st.pending = true;
            return;
        }
        GeneratedSerializer<?> owner = this;
        Object next = value;
        while (true) {
            owner.writeTail(kryo, output, next);
            if (!st.pending) {
                return;
            }
            owner = st.pendingOwner;
            next = st.takeValue();
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public final T read(final Kryo kryo, final Input input, final Class<? extends T> type) {
        final TailState st = tail;
        final boolean deferred = st.deferNext;
        st.deferNext = false;
        final Object object = readFields(kryo, (TroupeInput) input);
        if (tailType == null) {
            return (T) object;
        }
        if (deferred) {
            st.pendingValue = object;
            st.pendingOwner = this;
            st.pending = true;
            return (T) object;
        }
        GeneratedSerializer<?> owner = this;
        Object parent = object;
        while (true) {
            owner.setTail(parent, owner.readTail(kryo, input));
            if (!st.pending) {
                return (T) object;
            }
            owner = st.pendingOwner;
            parent = st.takeValue();
        }
    }

    private static boolean isChain(final Serializer<?> s) {
        return s instanceof GeneratedSerializer<?> g && g.tailType != null;
    }

    /** Writes a chain field exactly as Kryo would, letting the next link hand its own tail back. */
    private void writeTail(final Kryo kryo, final Output output, final Object value) {
        if (tailFinal) {
            final Serializer<?> s = nested(kryo, nestedTypes.length - 1);
            tail.deferNext = isChain(s);
            kryo.writeObjectOrNull(output, value, s);
        } else if (value == null) {
            kryo.writeClass(output, null);
        } else {
            final Serializer<?> s = kryo.writeClass(output, value.getClass()).getSerializer();
            tail.deferNext = isChain(s);
            kryo.writeObject(output, value, s);
        }
        tail.deferNext = false; // not consumed when the value was a back-reference
    }

    private Object readTail(final Kryo kryo, final Input input) {
        final Object value;
        if (tailFinal) {
            final Serializer<?> s = nested(kryo, nestedTypes.length - 1);
            tail.deferNext = isChain(s);
            value = kryo.readObjectOrNull(input, tailType, s);
        } else {
            final Registration r = kryo.readClass(input);
            if (r == null) {
                return null;
            }
            if (!tailType.isAssignableFrom(r.getType())) {
                throw new KryoException("Corrupt message: a " + r.getType().getName() + " where a "
                    + tailType.getName() + " belongs");
            }
            tail.deferNext = isChain(r.getSerializer());
            value = kryo.readObject(input, r.getType(), r.getSerializer());
        }
        tail.deferNext = false;
        return value;
    }
}
