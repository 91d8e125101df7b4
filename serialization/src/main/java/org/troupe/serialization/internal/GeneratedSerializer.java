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
 * part reads and writes the fields with plain field instructions, in a fixed order; this part writes and reads
 * nested objects (directly when the message tracks no references, see {@link GraphState}), walks chains
 * iteratively, and holds what the generated code looks up lazily. Public only because the hidden classes, defined
 * in their target's package, must be able to extend it.
 *
 * <p>Nested objects are encoded exactly as Kryo encodes them, fast path or not: a field of final type is a
 * not-null byte (unless its serializer writes null itself) and the object; any other field is a class id
 * ({@code 0} for null) and the object.
 *
 * @param <T> the serialized class
 */
public abstract class GeneratedSerializer<T> extends Serializer<T> {
    /**
     * What a generated serializer needs besides its code.
     *
     * @param type the serialized class
     * @param nestedTypes declared types of the fields whose type is final (written without a class id), tail last
     * @param tailType declared type of the chain field, or null if the class is not a chain
     * @param tailFinal whether that type is final (no class id on the wire)
     * @param instantiator makes instances of classes without a no-argument constructor, or null
     */
    public record Setup(
            Class<?> type,
            Class<?>[] nestedTypes,
            Class<?> tailType,
            boolean tailFinal,
            ObjectInstantiator<?> instantiator,
            GraphState graph) {}

    private static final int NULL = 0;
    private static final int NOT_NULL = 1;

    private final Class<?> selfType;
    private final Class<?>[] nestedTypes;
    private final Serializer<?>[] nested;
    private final Class<?> tailType;
    private final boolean tailFinal;
    private final ObjectInstantiator<?> instantiator;
    private final GraphState graph;

    protected GeneratedSerializer(final Setup setup) {
        this.selfType = setup.type();
        this.nestedTypes = setup.nestedTypes();
        this.nested = new Serializer<?>[nestedTypes.length];
        this.tailType = setup.tailType();
        this.tailFinal = setup.tailFinal();
        this.instantiator = setup.instantiator();
        this.graph = setup.graph();
    }

    // --- Generated per class ---

    /** Writes every field but the chain field, and returns the chain field's value (null if none). */
    protected abstract Object writeFields(Kryo kryo, TroupeOutput out, Object object);

    /** Makes an instance, registers it as a reference, reads every field but the chain field, and returns it. */
    protected abstract Object readFields(Kryo kryo, TroupeInput in);

    /** Sets the chain field of {@code object}. */
    protected abstract void setTail(Object object, Object value);

    /**
     * Chains only, no references: writes links of exactly this class in a loop; returns the first link of another
     * class, or null once the end of the chain is written.
     */
    protected Object writeRun(final Kryo kryo, final TroupeOutput out, final Object next) {
        throw new IllegalStateException("not a chain");
    }

    /**
     * Chains only, no references: reads links of exactly this class after {@code parent} in a loop; returns the
     * last link if one of another class follows (see {@link GraphState#stashed}), or null at the end of the chain.
     */
    protected Object readRun(final Kryo kryo, final TroupeInput in, final Object parent) {
        throw new IllegalStateException("not a chain");
    }

    // --- Called by generated code ---

    /** The serializer of the {@code index}-th final-typed field, looked up once (lazily, as types may recurse). */
    private Serializer<?> nested(final Kryo kryo, final int index) {
        Serializer<?> s = nested[index];
        if (s == null) {
            s = kryo.getSerializer(nestedTypes[index]);
            nested[index] = s;
        }
        return s;
    }

    protected final Object newInstance() {
        return instantiator.newInstance();
    }

    /** Marks that a link of this very class follows, as {@link #writeTail} would. */
    protected final void writeLinkHeader(final TroupeOutput out) {
        if (tailFinal) {
            out.writeByte(NOT_NULL);
        } else {
            graph.classes.writeClass(out, selfType);
        }
    }

    /** 0: the chain ends; 1: a link of this class follows; 2: a link of another class follows (stashed). */
    protected final int readLinkHeader(final TroupeInput in) {
        if (tailFinal) {
            return in.readByte() == NULL ? 0 : 1;
        }
        final Registration r = graph.classes.readClass(in);
        if (r == null) {
            return 0;
        }
        if (r.getType() == selfType) {
            return 1;
        }
        graph.stashed = r;
        return 2;
    }

    /** Writes a field whose declared type is final: no class id. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    protected final void writeFinal(final Kryo kryo, final TroupeOutput out, final Object value, final int index) {
        final Serializer s = nested(kryo, index);
        final GraphState g = graph;
        if (g.references) {
            kryo.writeObjectOrNull(out, value, s);
            return;
        }
        if (!s.getAcceptsNull()) {
            if (value == null) {
                out.writeByte(NULL);
                return;
            }
            out.writeByte(NOT_NULL);
        }
        g.enter();
        s.write(kryo, out, value);
        g.depth--;
    }

    /** Writes a field of any other type: its runtime class id, then the object. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    protected final void writeAny(final Kryo kryo, final TroupeOutput out, final Object value) {
        final GraphState g = graph;
        if (g.references) {
            kryo.writeClassAndObject(out, value);
            return;
        }
        if (value == null) {
            out.writeByte(NULL);
            return;
        }
        final Serializer s = g.classes.writeClass(out, value.getClass()).getSerializer();
        g.enter();
        s.write(kryo, out, value);
        g.depth--;
    }

    protected final Object readFinal(final Kryo kryo, final TroupeInput in, final int index) {
        final Serializer<?> s = nested(kryo, index);
        final GraphState g = graph;
        if (g.references) {
            return kryo.readObjectOrNull(in, nestedTypes[index], s);
        }
        if (!s.getAcceptsNull() && in.readByte() == NULL) {
            return null;
        }
        g.enter();
        final Object value = readWith(s, kryo, in, nestedTypes[index]);
        g.depth--;
        return value;
    }

    protected final Object readAny(final Kryo kryo, final TroupeInput in) {
        final GraphState g = graph;
        if (g.references) {
            return kryo.readClassAndObject(in);
        }
        final Registration r = g.classes.readClass(in);
        if (r == null) {
            return null;
        }
        g.enter();
        final Object value = readWith(r.getSerializer(), kryo, in, r.getType());
        g.depth--;
        return value;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Object readWith(final Serializer s, final Kryo kryo, final Input in, final Class type) {
        return s.read(kryo, in, type);
    }

    // --- Kryo entry points ---

    @Override
    public final void write(final Kryo kryo, final Output output, final T object) {
        final GraphState g = graph;
        final boolean deferred = g.deferNext;
        g.deferNext = false;
        final Object value = writeFields(kryo, (TroupeOutput) output, object);
        if (tailType == null) {
            return;
        }
        if (deferred) {
            g.pendingValue = value;
            g.pendingOwner = this;
            return;
        }
        GeneratedSerializer<?> owner = this;
        Object next = value;
        if (!g.references) {
            next = writeRun(kryo, (TroupeOutput) output, next);
            if (next == null) {
                return;
            }
        }
        while (true) {
            owner.writeTail(kryo, (TroupeOutput) output, next);
            if (g.pendingOwner == null) {
                return;
            }
            owner = g.pendingOwner;
            next = g.takeValue();
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public final T read(final Kryo kryo, final Input input, final Class<? extends T> type) {
        final GraphState g = graph;
        final boolean deferred = g.deferNext;
        g.deferNext = false;
        final Object object = readFields(kryo, (TroupeInput) input);
        if (tailType == null) {
            return (T) object;
        }
        if (deferred) {
            g.pendingValue = object;
            g.pendingOwner = this;
            return (T) object;
        }
        GeneratedSerializer<?> owner = this;
        Object parent = object;
        if (!g.references) {
            parent = readRun(kryo, (TroupeInput) input, parent);
            if (parent == null) {
                return (T) object;
            }
        }
        while (true) {
            owner.setTail(parent, owner.readTail(kryo, (TroupeInput) input));
            if (g.pendingOwner == null) {
                return (T) object;
            }
            owner = g.pendingOwner;
            parent = g.takeValue();
        }
    }

    private static boolean isChain(final Serializer<?> s) {
        return s instanceof GeneratedSerializer<?> g && g.tailType != null;
    }

    /**
     * Writes a chain field exactly as {@link #writeFinal} or {@link #writeAny} would, but lets the next link hand
     * its own tail back instead of recursing.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private void writeTail(final Kryo kryo, final TroupeOutput out, final Object value) {
        final GraphState g = graph;
        if (tailFinal) {
            g.deferNext = isChain(nested(kryo, nestedTypes.length - 1));
            writeFinal(kryo, out, value, nestedTypes.length - 1);
        } else if (value == null) {
            out.writeByte(NULL);
        } else {
            final Class<?> type = value.getClass();
            final Serializer s =
                    (g.references ? kryo.writeClass(out, type) : g.classes.writeClass(out, type)).getSerializer();
            g.deferNext = isChain(s);
            if (g.references) {
                kryo.writeObject(out, value, s);
            } else {
                g.enter();
                s.write(kryo, out, value);
                g.depth--;
            }
        }
        g.deferNext = false; // not consumed when the value was null or a back-reference
    }

    @SuppressWarnings("unchecked")
    private Object readTail(final Kryo kryo, final TroupeInput in) {
        final GraphState g = graph;
        final Object value;
        if (tailFinal) {
            g.deferNext = isChain(nested(kryo, nestedTypes.length - 1));
            value = readFinal(kryo, in, nestedTypes.length - 1);
        } else {
            final Registration r =
                    g.stashed != null ? g.takeStashed() : g.references ? kryo.readClass(in) : g.classes.readClass(in);
            if (r == null) {
                return null;
            }
            if (!tailType.isAssignableFrom(r.getType())) {
                throw new KryoException(
                        "Corrupt message: a " + r.getType().getName() + " where a " + tailType.getName() + " belongs");
            }
            g.deferNext = isChain(r.getSerializer());
            if (g.references) {
                value = kryo.readObject(in, r.getType(), r.getSerializer());
            } else {
                g.enter();
                value = readWith(r.getSerializer(), kryo, in, r.getType());
                g.depth--;
            }
        }
        g.deferNext = false;
        return value;
    }
}
