package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.ObjectArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultSerializers;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.Vector;
import java.util.function.Function;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;

/**
 * Serializers for the built-in allowed containers that check a size read from the wire against the bytes left and
 * the message's element budget before they allocate (Kryo's own pre-size from the announced count), and bulk
 * serializers for primitive arrays.
 */
final class BoundedSerializers {
    private BoundedSerializers() {}

    /** {@code hashCost} counts what the keys of the hashed containers read cost to hash. */
    static void register(final Kryo kryo, final HashCost hashCost) {
        for (final Class<?> c : List.of(ArrayList.class, LinkedList.class, ArrayDeque.class, Vector.class)) {
            kryo.addDefaultSerializer(c, new BoundedCollectionSerializer<>());
        }
        kryo.addDefaultSerializer(HashSet.class, new HashedSetSerializer(hashCost));
        kryo.addDefaultSerializer(HashMap.class, new HashedMapSerializer(hashCost, false));
        kryo.addDefaultSerializer(Hashtable.class, new HashedMapSerializer(hashCost, false));
        final var list = new ImmutableCollectionSerializer(List::of, null);
        final var set = new ImmutableCollectionSerializer(elements -> Set.copyOf(Arrays.asList(elements)), hashCost);
        for (final Class<?> c : List.of(List.of().getClass(), List.of(1).getClass())) {
            kryo.addDefaultSerializer(c, list);
        }
        for (final Class<?> c : List.of(Set.of().getClass(), Set.of(1).getClass())) {
            kryo.addDefaultSerializer(c, set);
        }
        kryo.addDefaultSerializer(Arrays.asList().getClass(), new ImmutableCollectionSerializer(Arrays::asList, null));
        final var frozenMap = new HashedMapSerializer(hashCost, true);
        kryo.addDefaultSerializer(Map.of().getClass(), frozenMap);
        kryo.addDefaultSerializer(Map.of(1, 1).getClass(), frozenMap);
        kryo.addDefaultSerializer(Object[].class, BoundedObjectArraySerializer.class);
        kryo.addDefaultSerializer(UUID.class, new DefaultSerializers.UUIDSerializer());
        kryo.addDefaultSerializer( // its words as a long[], whose length is checked against the bytes left
                BitSet.class,
                new PrimitiveArraySerializer<BitSet>(
                        (out, bits) -> out.writeLongArray(bits == null ? null : bits.toLongArray()), in -> {
                            final long[] words = FieldCodecs.readLongArray(in);
                            return words == null ? null : BitSet.valueOf(words);
                        }));
        kryo.addDefaultSerializer(
                double[].class,
                new PrimitiveArraySerializer<>(TroupeOutput::writeDoubleArray, FieldCodecs::readDoubleArray));
        kryo.addDefaultSerializer(
                float[].class,
                new PrimitiveArraySerializer<>(TroupeOutput::writeFloatArray, FieldCodecs::readFloatArray));
        kryo.addDefaultSerializer(
                long[].class, new PrimitiveArraySerializer<>(TroupeOutput::writeLongArray, FieldCodecs::readLongArray));
        kryo.addDefaultSerializer(
                int[].class, new PrimitiveArraySerializer<>(TroupeOutput::writeIntArray, FieldCodecs::readIntArray));
        kryo.addDefaultSerializer(
                short[].class,
                new PrimitiveArraySerializer<>(TroupeOutput::writeShortArray, FieldCodecs::readShortArray));
        kryo.addDefaultSerializer(
                char[].class, new PrimitiveArraySerializer<>(TroupeOutput::writeCharArray, FieldCodecs::readCharArray));
        kryo.addDefaultSerializer(
                byte[].class, new PrimitiveArraySerializer<>(TroupeOutput::writeByteArray, FieldCodecs::readByteArray));
        kryo.addDefaultSerializer(
                boolean[].class,
                new PrimitiveArraySerializer<>(TroupeOutput::writeBooleanArray, FieldCodecs::readBooleanArray));
    }

    /** Each element or entry takes at least one byte, so a count larger than what is left is a lie. */
    private static void checkCount(final Input input, final int size) {
        ((TroupeInput) input).checkElements(size);
    }

    static final class BoundedCollectionSerializer<T extends Collection<Object>> extends CollectionSerializer<T> {
        @Override
        protected T create(final Kryo kryo, final Input input, final Class<? extends T> type, final int size) {
            checkCount(input, size);
            return super.create(kryo, input, type, size);
        }
    }

    /**
     * Sets that hash their elements (HashSet, LinkedHashSet, subclasses): each element's hash is counted
     * ({@link HashCost}) before it is added, in the order it was written.
     */
    private static final class HashedSetSerializer extends Serializer<Set<Object>> {
        private final HashCost hashCost;

        HashedSetSerializer(final HashCost hashCost) {
            this.hashCost = hashCost;
        }

        @Override
        public void write(final Kryo kryo, final Output output, final Set<Object> set) {
            output.writeVarInt(set.size(), true);
            for (final Object element : set) {
                kryo.writeClassAndObject(output, element);
            }
        }

        @Override
        public Set<Object> read(final Kryo kryo, final Input input, final Class<? extends Set<Object>> type) {
            final int size = input.readVarInt(true);
            checkCount(input, size);
            final Class<?> exact = type;
            final Set<Object> set = exact == HashSet.class
                    ? HashSet.newHashSet(size)
                    : exact == LinkedHashSet.class ? LinkedHashSet.newLinkedHashSet(size) : kryo.newInstance(type);
            kryo.reference(set);
            for (int i = 0; i < size; i++) {
                final Object element = kryo.readClassAndObject(input);
                hashCost.charge(element);
                set.add(element);
            }
            return set;
        }
    }

    /**
     * Maps, which hash their keys: HashMap, LinkedHashMap and their subclasses, and the immutable maps (read into a
     * map first, then made and registered as the object read, as {@link ImmutableCollectionSerializer} does). Each
     * key's hash is counted ({@link HashCost}) before it is put.
     */
    private static final class HashedMapSerializer extends Serializer<Map<Object, Object>> {
        private final HashCost hashCost;
        private final boolean immutable;

        HashedMapSerializer(final HashCost hashCost, final boolean immutable) {
            super(false, immutable);
            this.hashCost = hashCost;
            this.immutable = immutable;
        }

        @Override
        public void write(final Kryo kryo, final Output output, final Map<Object, Object> map) {
            output.writeVarInt(map.size(), true);
            for (final Map.Entry<Object, Object> entry : map.entrySet()) {
                kryo.writeClassAndObject(output, entry.getKey());
                kryo.writeClassAndObject(output, entry.getValue());
            }
        }

        @Override
        public Map<Object, Object> read(
                final Kryo kryo, final Input input, final Class<? extends Map<Object, Object>> type) {
            final int size = input.readVarInt(true);
            checkCount(input, 2 * size);
            final Class<?> exact = type;
            final Map<Object, Object> map = immutable || exact == HashMap.class
                    ? HashMap.newHashMap(size)
                    : exact == LinkedHashMap.class ? LinkedHashMap.newLinkedHashMap(size) : kryo.newInstance(type);
            if (!immutable) {
                kryo.reference(map);
            }
            for (int i = 0; i < size; i++) {
                final Object key = kryo.readClassAndObject(input);
                final Object value = kryo.readClassAndObject(input);
                hashCost.charge(key);
                map.put(key, value);
            }
            if (!immutable) {
                return map;
            }
            final Map<Object, Object> frozen = Map.copyOf(map);
            kryo.reference(frozen);
            return frozen;
        }
    }

    /**
     * Immutable lists and sets: the elements are read first, then the collection is made and registered as the
     * object read, so references to it elsewhere in the message resolve to it. (A reference to it from inside its
     * own elements cannot be honoured: it does not exist before them.)
     */
    private static final class ImmutableCollectionSerializer extends Serializer<Collection<Object>> {
        private final Function<Object[], Collection<Object>> factory;
        /** Counts the elements' hashes, for a set; null for a list. */
        private final HashCost hashCost;

        ImmutableCollectionSerializer(final Function<Object[], Collection<Object>> factory, final HashCost hashCost) {
            super(false, true);
            this.factory = factory;
            this.hashCost = hashCost;
        }

        @Override
        public void write(final Kryo kryo, final Output output, final Collection<Object> collection) {
            output.writeVarInt(collection.size(), true);
            for (final Object element : collection) {
                kryo.writeClassAndObject(output, element);
            }
        }

        @Override
        public Collection<Object> read(
                final Kryo kryo, final Input input, final Class<? extends Collection<Object>> type) {
            final int size = input.readVarInt(true);
            checkCount(input, size);
            final Object[] elements = new Object[size];
            for (int i = 0; i < size; i++) {
                elements[i] = kryo.readClassAndObject(input);
                if (hashCost != null) {
                    hashCost.charge(elements[i]);
                }
            }
            final Collection<Object> collection = factory.apply(elements);
            kryo.reference(collection);
            return collection;
        }
    }

    /** Arrays of objects, including the rows of multi-dimensional arrays. */
    public static final class BoundedObjectArraySerializer extends ObjectArraySerializer {
        public BoundedObjectArraySerializer(final Kryo kryo, final Class<?> type) {
            super(kryo, type);
        }

        @Override
        @SuppressWarnings("rawtypes")
        public Object[] read(final Kryo kryo, final Input input, final Class type) {
            final int start = input.position();
            final int n = input.readVarInt(true) - 1;
            checkCount(input, Math.max(n, 0));
            input.setPosition(start);
            return super.read(kryo, input, type);
        }
    }

    /** Bulk little-endian primitive arrays, the same bytes as primitive array fields of generated serializers. */
    static final class PrimitiveArraySerializer<A> extends Serializer<A> {
        interface Writer<A> {
            void write(TroupeOutput out, A array);
        }

        interface Reader<A> {
            A read(TroupeInput in);
        }

        private final Writer<A> writer;
        private final Reader<A> reader;

        PrimitiveArraySerializer(final Writer<A> writer, final Reader<A> reader) {
            super(true);
            this.writer = writer;
            this.reader = reader;
        }

        @Override
        public void write(final Kryo kryo, final Output output, final A array) {
            writer.write((TroupeOutput) output, array);
        }

        @Override
        public A read(final Kryo kryo, final Input input, final Class<? extends A> type) {
            return reader.read((TroupeInput) input);
        }
    }
}
