package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.io.KryoBufferOverflowException;
import com.esotericsoftware.kryo.io.KryoBufferUnderflowException;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import org.objenesis.strategy.StdInstantiatorStrategy;
import org.troupe.serialization.ArraySlice;
import org.troupe.serialization.SerializationConfig;
import org.troupe.serialization.SerializationException;

/**
 * One direction of a session: a Kryo instance set up for Troupe (connection class table, allow-list, bounded and
 * generated serializers) and the bookkeeping around each message. After a failed message the Kryo instance is
 * replaced, keeping only the connection's class table, so no half-finished state can leak into the next message.
 */
public final class SessionKryo {
    private final SerializationConfig config;
    private final AllowList allowList;
    private Kryo kryo;
    private SessionClassResolver classes;
    private SessionReferenceResolver references;
    private GraphState graph;
    private final boolean tracksClasses;

    public SessionKryo(final SerializationConfig config, final AllowList allowList) {
        this.config = config;
        this.allowList = allowList;
        this.tracksClasses = !config.referenceClasses().isEmpty();
        build();
    }

    private void build() {
        final SessionClassResolver previous = classes;
        classes = new SessionClassResolver(allowList);
        graph = new GraphState(classes, config.maxDepth());
        references = new SessionReferenceResolver(config.referenceClasses());
        kryo = new Kryo(classes, references);
        kryo.setReferences(!config.referenceClasses().isEmpty());
        kryo.setRegistrationRequired(false);
        kryo.setWarnUnregisteredClasses(false);
        kryo.setMaxDepth(config.maxDepth());
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        final GeneratedSerializerFactory generated = new GeneratedSerializerFactory(graph);
        kryo.setDefaultSerializer(generated);
        kryo.addDefaultSerializer(Record.class, generated);
        kryo.addDefaultSerializer(ArraySlice.class, new ArraySliceSerializer());
        BoundedSerializers.register(kryo);
        classes.seedBuiltIns();
        if (previous != null) {
            previous.copyTableTo(classes);
        }
    }

    public Kryo kryo() {
        return kryo;
    }

    /** Prepares for one message; {@code trackAll} turns reference tracking on for every class in it. */
    public void beginMessage(final boolean trackAll) {
        classes.mark();
        references.trackAll(trackAll);
        final boolean on = trackAll || tracksClasses;
        if (kryo.getReferences() != on) {
            kryo.setReferences(on);
        }
        graph.beginMessage(on);
    }

    /** Writes the root object of a message: its class id, then the object. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    public void writeRoot(final Output out, final Object message) {
        if (graph.references || message == null) {
            kryo.writeClassAndObject(out, message);
            return;
        }
        final Serializer s = classes.writeClass(out, message.getClass()).getSerializer();
        graph.enter();
        s.write(kryo, out, message);
        graph.depth--;
    }

    /** Reads the root object of a message. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Object readRoot(final Input in) {
        if (graph.references) {
            return kryo.readClassAndObject(in);
        }
        final Registration r = classes.readClass(in);
        if (r == null) {
            return null;
        }
        graph.enter();
        final Serializer s = r.getSerializer();
        final Object message = s.read(kryo, in, r.getType());
        graph.depth--;
        return message;
    }

    /**
     * Cleans up after a message that failed and says why in the project's terms.
     *
     * @param operation "write" or "read"
     * @param what the message's type or position, for the error text
     */
    public SerializationException failMessage(final Throwable failure, final String operation, final String what) {
        classes.rollback();
        build();
        return translate(failure, operation, what);
    }

    private SerializationException translate(final Throwable failure, final String operation, final String what) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SerializationException s) {
                return s;
            }
        }
        final String prefix = "Could not " + operation + " " + what + ": ";
        if (failure instanceof StackOverflowError) {
            return new SerializationException(prefix + "the object graph is too deep for this thread's stack; lower "
                + SerializationConfig.MAX_DEPTH_PROP_NAME + " (now " + config.maxDepth() + ") or raise the stack size (-Xss)",
                failure);
        }
        if (failure instanceof KryoBufferOverflowException) {
            return new SerializationException(prefix + "the message is larger than "
                + SerializationConfig.MAX_MESSAGE_BYTES_PROP_NAME + " = " + config.maxMessageBytes() + " bytes", failure);
        }
        if (failure instanceof KryoBufferUnderflowException) {
            return new SerializationException(prefix + "the message is truncated, or longer than "
                + SerializationConfig.MAX_MESSAGE_BYTES_PROP_NAME + " = " + config.maxMessageBytes() + " bytes (" + failure.getMessage() + ")", failure);
        }
        if (failure instanceof KryoException k && k.getMessage() != null && k.getMessage().startsWith("Max depth exceeded")) {
            return new SerializationException(prefix + "objects are nested deeper than "
                + SerializationConfig.MAX_DEPTH_PROP_NAME + " = " + config.maxDepth()
                + " (a chain through a last self-typed field does not count; other nesting does)", failure);
        }
        return new SerializationException(prefix + "corrupt or unexpected data (" + failure + ")", failure);
    }
}
