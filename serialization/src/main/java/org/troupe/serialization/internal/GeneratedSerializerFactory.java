package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.SerializerFactory;
import com.esotericsoftware.kryo.serializers.FieldSerializer;
import com.esotericsoftware.kryo.serializers.RecordSerializer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.serialization.SerializationException;

/**
 * Kryo's default serializer factory in a session: a generated serializer for every class, or, where generation is
 * impossible, Kryo's reflective one with one log line per class saying why. A JDK class that would need it is
 * refused (the JDK does not open its packages to Kryo), unless the session sends such classes, and those that
 * serialize themselves, with Java serialization ({@link JavaStreamSerializer}).
 */
final class GeneratedSerializerFactory implements SerializerFactory<Serializer<?>> {
    private static final Logger LOG = LoggerFactory.getLogger(GeneratedSerializerFactory.class);
    /** Whether the fallback was logged for a class; a ClassValue, so it does not keep classes from unloading. */
    private static final ClassValue<AtomicBoolean> WARNED = new ClassValue<>() {
        @Override
        protected AtomicBoolean computeValue(final Class<?> type) {
            return new AtomicBoolean();
        }
    };

    private final GraphState graph;
    /** For the classes that serialize themselves, when the session sends them so; else null. */
    private final JavaStreamSerializer javaStream;

    GeneratedSerializerFactory(final GraphState graph, final JavaStreamSerializer javaStream) {
        this.graph = graph;
        this.javaStream = javaStream;
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Serializer<?> newSerializer(final Kryo kryo, final Class type) {
        if (javaStream != null && JavaStreamSerializer.wants(type, Unsendable.closedJdkClass(type))) {
            return javaStream;
        }
        try {
            return SerializerGenerator.newSerializer(type, graph);
        } catch (SerializerGenerator.CannotGenerateException e) {
            if (closedToUs(type)) {
                // Kryo's reflective serializer would fail too, with a message about Kryo's module.
                throw new SerializationException(SerializerGenerator.notOpen(type), e);
            }
            if (Unsendable.closedJdkClass(type)) {
                throw Unsendable.unsupportedJdk(type); // rather than an InaccessibleObjectException from Kryo
            }
            if (WARNED.get(type).compareAndSet(false, true)) {
                LOG.warn(
                        "No generated serializer for {} ({}); using Kryo's reflective serializer, which is slower",
                        type.getName(),
                        e.getMessage());
            }
            return type.isRecord() ? new RecordSerializer<>(type) : new FieldSerializer<>(kryo, type);
        }
    }

    /** Whether {@code type} is an application's class in a named module that keeps its package closed to us. */
    private static boolean closedToUs(final Class<?> type) {
        final Module m = type.getModule();
        final ClassLoader loader = m.getClassLoader();
        return m.isNamed()
                && loader != null
                && loader != ClassLoader.getPlatformClassLoader()
                && !m.isOpen(type.getPackageName(), GeneratedSerializerFactory.class.getModule());
    }

    @Override
    @SuppressWarnings("rawtypes")
    public boolean isSupported(final Class type) {
        return true;
    }
}
