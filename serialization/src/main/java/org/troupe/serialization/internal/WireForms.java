package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.SerializerFactory;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.List;
import org.troupe.serialization.WireForm;

/** The Kryo serializers that put {@link WireForm}s to work in a session. */
final class WireForms {
    private WireForms() {}

    static void register(final Kryo kryo, final List<WireForm<?, ?>> forms, final SerializerFactory<?> generated) {
        for (final WireForm<?, ?> form : forms) {
            kryo.addDefaultSerializer(form.wireType(), new SerializerFactory.BaseSerializerFactory<>() {
                @Override
                @SuppressWarnings("rawtypes")
                public Serializer<?> newSerializer(final Kryo k, final Class type) {
                    return new Resolving<>(form, generated.newSerializer(k, type));
                }
            });
            kryo.addDefaultSerializer(form.type(), new SerializerFactory.BaseSerializerFactory<>() {
                @Override
                @SuppressWarnings("rawtypes")
                public Serializer<?> newSerializer(final Kryo k, final Class type) {
                    return new Replacing<>(form);
                }
            });
        }
    }

    /** The serializer a registration really writes with: the wire type's own for a replaced type. */
    static Serializer<?> effective(final Kryo kryo, final Serializer<?> serializer) {
        if (serializer instanceof Replacing<?, ?> r) {
            return effective(kryo, kryo.getSerializer(r.form.wireType()));
        }
        return serializer instanceof Resolving<?, ?> r ? r.inner : serializer;
    }

    /** The class name a registration's type crosses the wire as. */
    static String wireName(final Class<?> type, final Serializer<?> serializer) {
        return serializer instanceof Replacing<?, ?> r ? r.form.wireType().getName() : type.getName();
    }

    /** Reads and writes the wire type with its own serializer, resolving what it reads. */
    static final class Resolving<T, W> extends Serializer<W> {
        private final WireForm<T, W> form;
        private final Serializer<W> inner;

        @SuppressWarnings("unchecked")
        Resolving(final WireForm<T, W> form, final Serializer<?> inner) {
            this.form = form;
            this.inner = (Serializer<W>) inner;
        }

        @Override
        public void write(final Kryo kryo, final Output output, final W wire) {
            inner.write(kryo, output, wire);
        }

        @Override
        @SuppressWarnings("unchecked")
        public W read(final Kryo kryo, final Input input, final Class<? extends W> type) {
            // The reader gets the resolved object in place of the wire object; the cast is erased.
            return (W) form.resolve(inner.read(kryo, input, type));
        }
    }

    /** Writes a replaced type as its wire type; it is never read, since its name never crosses. */
    static final class Replacing<T, W> extends Serializer<T> {
        private final WireForm<T, W> form;

        Replacing(final WireForm<T, W> form) {
            this.form = form;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void write(final Kryo kryo, final Output output, final T value) {
            final W wire = form.replace(value);
            if (wire == null || wire.getClass() != form.wireType()) {
                throw new IllegalStateException("WireForm for " + form.type().getName() + " replaced an object by "
                        + wire + " instead of a " + form.wireType().getName());
            }
            ((Serializer<W>) kryo.getSerializer(form.wireType())).write(kryo, output, wire);
        }

        @Override
        public T read(final Kryo kryo, final Input input, final Class<? extends T> type) {
            throw new IllegalStateException(
                    type.getName() + " is always read as " + form.wireType().getName());
        }
    }
}
