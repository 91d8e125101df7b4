package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.ObjectArraySerializer;
import com.esotericsoftware.kryo.serializers.MapSerializer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;

/**
 * Serializers for the built-in allowed containers that check a size read from the wire against the bytes left
 * before they allocate (Kryo's own pre-size from the announced count), and bulk serializers for primitive arrays.
 */
final class BoundedSerializers {
    private BoundedSerializers() {
    }

    static void register(final Kryo kryo) {
        for (final Class<?> c : List.of(ArrayList.class, LinkedList.class, ArrayDeque.class, HashSet.class,
            LinkedHashSet.class)) {
            kryo.addDefaultSerializer(c, new BoundedCollectionSerializer<>());
        }
        for (final Class<?> c : List.of(HashMap.class, LinkedHashMap.class)) {
            kryo.addDefaultSerializer(c, new BoundedMapSerializer<>());
        }
        kryo.addDefaultSerializer(List.of().getClass(), new ImmutableListSerializer());
        kryo.addDefaultSerializer(List.of(1).getClass(), new ImmutableListSerializer());
        kryo.addDefaultSerializer(Arrays.asList().getClass(), new ArraysAsListSerializer());
        kryo.addDefaultSerializer(Set.of().getClass(), new ImmutableSetSerializer());
        kryo.addDefaultSerializer(Set.of(1).getClass(), new ImmutableSetSerializer());
        kryo.addDefaultSerializer(Map.of().getClass(), new ImmutableMapSerializer());
        kryo.addDefaultSerializer(Map.of(1, 1).getClass(), new ImmutableMapSerializer());
        kryo.addDefaultSerializer(Object[].class, BoundedObjectArraySerializer.class);
        kryo.addDefaultSerializer(double[].class, new PrimitiveArraySerializer<>(FieldCodecs::write, FieldCodecs::readDoubleArray));
        kryo.addDefaultSerializer(float[].class, new PrimitiveArraySerializer<>(FieldCodecs::write, FieldCodecs::readFloatArray));
        kryo.addDefaultSerializer(long[].class, new PrimitiveArraySerializer<>(FieldCodecs::write, FieldCodecs::readLongArray));
        kryo.addDefaultSerializer(int[].class, new PrimitiveArraySerializer<>(FieldCodecs::write, FieldCodecs::readIntArray));
        kryo.addDefaultSerializer(short[].class, new PrimitiveArraySerializer<>(FieldCodecs::write, FieldCodecs::readShortArray));
        kryo.addDefaultSerializer(char[].class, new PrimitiveArraySerializer<>(FieldCodecs::write, FieldCodecs::readCharArray));
        kryo.addDefaultSerializer(byte[].class, new PrimitiveArraySerializer<>(FieldCodecs::write, FieldCodecs::readByteArray));
        kryo.addDefaultSerializer(boolean[].class, new PrimitiveArraySerializer<>(FieldCodecs::write, FieldCodecs::readBooleanArray));
    }

    /** Each element or entry takes at least one byte, so a count larger than what is left is a lie. */
    private static void checkCount(final Input input, final int size) {
        ((TroupeInput) input).checkAvailable(size, 1);
    }

    static final class BoundedCollectionSerializer<T extends Collection<Object>> extends CollectionSerializer<T> {
        @Override
        protected T create(final Kryo kryo, final Input input, final Class<? extends T> type, final int size) {
            checkCount(input, size);
            return super.create(kryo, input, type, size);
        }
    }

    static final class BoundedMapSerializer<T extends Map<Object, Object>> extends MapSerializer<T> {
        @Override
        protected T create(final Kryo kryo, final Input input, final Class<? extends T> type, final int size) {
            checkCount(input, size);
            return super.create(kryo, input, type, size);
        }
    }

    /** Reads into an {@link ArrayList}, then makes the collection the sender had. */
    private abstract static class CopyingCollectionSerializer<T extends Collection<Object>>
        extends CollectionSerializer<Collection<Object>> {
        CopyingCollectionSerializer() {
            setElementsCanBeNull(false);
        }

        @Override
        protected Collection<Object> create(final Kryo kryo, final Input input,
                                            final Class<? extends Collection<Object>> type, final int size) {
            checkCount(input, size);
            return new ArrayList<>(size);
        }

        @Override
        public Collection<Object> read(final Kryo kryo, final Input input,
                                       final Class<? extends Collection<Object>> type) {
            final Collection<Object> elements = super.read(kryo, input, type);
            return elements == null ? null : copy(elements);
        }

        abstract Collection<Object> copy(Collection<Object> elements);
    }

    static final class ImmutableListSerializer extends CopyingCollectionSerializer<List<Object>> {
        @Override
        Collection<Object> copy(final Collection<Object> elements) {
            return List.copyOf(elements);
        }
    }

    static final class ImmutableSetSerializer extends CopyingCollectionSerializer<Set<Object>> {
        @Override
        Collection<Object> copy(final Collection<Object> elements) {
            return Set.copyOf(elements);
        }
    }

    static final class ArraysAsListSerializer extends CopyingCollectionSerializer<List<Object>> {
        ArraysAsListSerializer() {
            setElementsCanBeNull(true);
        }

        @Override
        Collection<Object> copy(final Collection<Object> elements) {
            return Arrays.asList(elements.toArray());
        }
    }

    static final class ImmutableMapSerializer extends MapSerializer<Map<Object, Object>> {
        @Override
        protected Map<Object, Object> create(final Kryo kryo, final Input input,
                                             final Class<? extends Map<Object, Object>> type, final int size) {
            checkCount(input, size);
            return new HashMap<>();
        }

        @Override
        public Map<Object, Object> read(final Kryo kryo, final Input input,
                                        final Class<? extends Map<Object, Object>> type) {
            final Map<Object, Object> entries = super.read(kryo, input, type);
            return entries == null ? null : Map.copyOf(entries);
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
