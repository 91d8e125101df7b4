package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.KryoBufferOverflowException;
import com.esotericsoftware.kryo.io.KryoBufferUnderflowException;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.objenesis.strategy.StdInstantiatorStrategy;
import org.troupe.serialization.ArraySlice;
import org.troupe.serialization.SerializationConfig;
import org.troupe.serialization.SerializationException;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;
import org.troupe.serialization.WireForm;

/**
 * One direction of a session: a Kryo instance set up for Troupe (connection class table, allow-list, bounded and
 * generated serializers) and the bookkeeping around each message. After a failed message the Kryo instance is
 * replaced, keeping only the connection's class table, so no half-finished state can leak into the next message.
 */
public final class SessionKryo {
    /** Stack a level of a graph may take, with room to spare: a cold level was seen to take 700 bytes to 1 KiB. */
    private static final long DEEP_STACK_BYTES_PER_LEVEL = 4096;

    /** Flags byte: every class in the message is reference-tracked. Implies {@link #FLAG_KRYO_REFERENCES}. */
    private static final int FLAG_TRACK_ALL = 1;
    /** Flags byte: the message is written through Kryo's reference path (all classes, or the configured ones). */
    private static final int FLAG_KRYO_REFERENCES = 2;
    /** Flags byte: a header defining classes new to the connection precedes the root object. */
    private static final int FLAG_DEFINITIONS = 4;

    private final SerializationConfig config;
    private final AllowList allowList;
    private final List<WireForm<?, ?>> forms;
    /**
     * The classes tracked in every message: from the configuration when writing; when reading, as the peer's
     * class definitions say, so two peers configured differently still agree on the bytes.
     */
    private final Set<Class<?>> tracked;

    private final TroupeOutput definitions;
    private Kryo kryo;
    private SessionClassResolver classes;
    private SessionReferenceResolver references;
    private GraphState graph;

    private SessionKryo(
            final SerializationConfig config,
            final AllowList allowList,
            final List<WireForm<?, ?>> forms,
            final boolean writing) {
        this.config = config;
        this.allowList = allowList;
        this.forms = forms;
        this.tracked = writing ? config.referenceClasses() : new HashSet<>();
        this.definitions = writing ? new TroupeOutput(256, config.maxMessageBytes()) : null;
        build();
    }

    public static SessionKryo forWriting(
            final SerializationConfig config, final AllowList allowList, final List<WireForm<?, ?>> forms) {
        return new SessionKryo(config, allowList, forms, true);
    }

    public static SessionKryo forReading(
            final SerializationConfig config, final AllowList allowList, final List<WireForm<?, ?>> forms) {
        return new SessionKryo(config, allowList, forms, false);
    }

    private void build() {
        final SessionClassResolver previous = classes;
        classes = new SessionClassResolver(allowList);
        references = new SessionReferenceResolver(tracked);
        kryo = new Kryo(classes, references);
        if (config.classLoader() != null) {
            kryo.setClassLoader(config.classLoader());
        }
        graph = new GraphState(classes, kryo, config.maxDepth());
        kryo.setRegistrationRequired(false);
        kryo.setWarnUnregisteredClasses(false);
        kryo.setMaxDepth(config.maxDepth());
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        final GeneratedSerializerFactory generated = new GeneratedSerializerFactory(
                graph, config.javaSerialization() ? new JavaStreamSerializer(allowList) : null);
        kryo.setDefaultSerializer(generated);
        kryo.addDefaultSerializer(Record.class, generated);
        kryo.addDefaultSerializer(ArraySlice.class, new ArraySliceSerializer());
        BoundedSerializers.register(kryo, graph.hashCost);
        WireForms.register(kryo, forms, generated);
        classes.seedBuiltIns();
        if (previous != null) {
            previous.copyTableTo(classes);
        }
    }

    public Kryo kryo() {
        return kryo;
    }

    /**
     * Writes one message: the flags byte, the definitions of the classes it is the first to use, and the root.
     * The definitions are only known once the root is written, so the rare message that has them is moved up to
     * make room.
     */
    public void write(final TroupeOutput out, final Object message, final boolean trackAll) {
        final boolean kryoReferences = trackAll || !tracked.isEmpty();
        classes.mark();
        begin(trackAll, kryoReferences);
        final int flagsAt = out.position();
        out.writeByte(0);
        writeRoot(out, message);
        int flags = (trackAll ? FLAG_TRACK_ALL : 0) | (kryoReferences ? FLAG_KRYO_REFERENCES : 0);
        if (classes.hasDefinitions()) {
            definitions.reset();
            classes.writeDefinitions(definitions, tracked);
            out.insert(flagsAt + 1, definitions.getBuffer(), definitions.position());
            flags |= FLAG_DEFINITIONS;
        }
        out.getBuffer()[flagsAt] = (byte) flags;
    }

    /** Reads a message's flags byte and definitions header; its root comes next. */
    public void readHeader(final TroupeInput in) {
        if (in.remaining() == 0) {
            throw new SerializationException("Empty message");
        }
        final int flags = in.readByte() & 0xFF;
        final boolean trackAll = (flags & FLAG_TRACK_ALL) != 0;
        final boolean kryoReferences = (flags & FLAG_KRYO_REFERENCES) != 0;
        if ((flags & ~(FLAG_TRACK_ALL | FLAG_KRYO_REFERENCES | FLAG_DEFINITIONS)) != 0
                || (trackAll && !kryoReferences)) {
            throw new SerializationException("Corrupt message: unknown flags " + flags);
        }
        if ((flags & FLAG_DEFINITIONS) != 0) {
            classes.readDefinitions(in, tracked);
        }
        begin(trackAll, kryoReferences);
    }

    private void begin(final boolean trackAll, final boolean kryoReferences) {
        references.trackAll(trackAll);
        if (kryo.getReferences() != kryoReferences) {
            kryo.setReferences(kryoReferences);
        }
        graph.beginMessage(kryoReferences);
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private void writeRoot(final Output out, final Object message) {
        if (graph.references || message == null) {
            kryo.writeClassAndObject(out, message);
            return;
        }
        final Serializer s = classes.writeClass(out, message.getClass()).getSerializer();
        graph.enter();
        s.write(kryo, out, message);
        graph.depth--;
    }

    /** Reads the root object of a message, after {@link #readHeader}. */
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
     * Makes the session ready to read the current message's root again, after a {@link StackOverflowError} cut the
     * first reading short: a fresh Kryo with the same class table, set as the message's header said.
     */
    public void restartRoot() {
        final boolean trackAll = references.tracksAll();
        final boolean kryoReferences = kryo.getReferences();
        recover();
        begin(trackAll, kryoReferences);
    }

    /**
     * After a message that failed midway: the classes it was the first to write are taken back, and a fresh Kryo
     * keeps the connection's class table without the failed graph's state.
     */
    public void recover() {
        classes.rollback();
        build();
    }

    /**
     * Runs {@code task} on a new thread whose stack holds a graph as deep as {@link SerializationConfig#maxDepth()}
     * allows, even before the JIT has compiled anything (about 1 KiB a level then, measured), and waits for it: what
     * a {@link StackOverflowError} on a smaller stack cut short runs again there, so that the depth limit, not the
     * stack of whichever thread happened to read or write, decides.
     */
    public <T> T onDeepStack(final Supplier<T> task) {
        final long stackBytes = Math.max(16L << 20, (long) config.maxDepth() * DEEP_STACK_BYTES_PER_LEVEL);
        final AtomicReference<T> result = new AtomicReference<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread deep = Thread.ofPlatform()
                .name("troupe-deep-graph")
                .daemon()
                .stackSize(stackBytes)
                .start(() -> {
                    try {
                        result.set(task.get());
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                });
        boolean interrupted = false;
        while (true) {
            try {
                deep.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the session is the deep thread's until it ends
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        final Throwable f = failure.get();
        if (f instanceof RuntimeException r) {
            throw r;
        }
        if (f instanceof Error e) {
            throw e;
        }
        return result.get();
    }

    /**
     * Reads the class of a root that the caller reads itself, and the marker Kryo writes before a root when the
     * message tracks references to its class (a root is never a reference to an earlier object).
     */
    public Class<?> readRootClass(final Input in) {
        final Registration r = classes.readClass(in);
        if (r == null) {
            return null;
        }
        if (graph.references && references.useReferences(r.getType())) {
            final int marker = in.readVarInt(true);
            if (marker != Kryo.NOT_NULL) {
                throw new KryoException("Corrupt message: root reference marker " + marker);
            }
        }
        return r.getType();
    }

    /** The message last written was not sent: see {@link org.troupe.serialization.Encoder#abandonLast()}. */
    public void abandonLast() {
        classes.rollback();
    }

    /**
     * Cleans up after a message that failed and says why in the project's terms.
     *
     * @param operation "write" or "read"
     * @param what the message's type or position, for the error text
     */
    public SerializationException failMessage(final Throwable failure, final String operation, final String what) {
        recover();
        if (failure instanceof VirtualMachineError e && !(failure instanceof StackOverflowError)) {
            throw e; // out of memory or worse: nothing to explain, but the session is clean for whoever goes on
        }
        return translate(failure, operation, what);
    }

    /** Without reference tracking, a cycle is written until it is too deep or too large. */
    private String cycleHint() {
        return config.references()
                ? ""
                : "; if the objects form a cycle, track references (" + SerializationConfig.REFERENCES_PROP_NAME
                        + "=true)";
    }

    private SerializationException translate(final Throwable failure, final String operation, final String what) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SerializationException s) {
                return s;
            }
        }
        final String prefix = "Could not " + operation + " " + what + ": ";
        if (failure instanceof StackOverflowError) {
            return new SerializationException(
                    prefix + "the object graph is too deep for this thread's stack; lower "
                            + SerializationConfig.MAX_DEPTH_PROP_NAME + " (now " + config.maxDepth()
                            + ") or raise the stack size (-Xss)",
                    failure);
        }
        if (failure instanceof KryoBufferOverflowException) {
            return new SerializationException(
                    prefix + "the message is larger than "
                            + SerializationConfig.MAX_MESSAGE_BYTES_PROP_NAME + " = " + config.maxMessageBytes()
                            + " bytes"
                            + cycleHint(),
                    failure);
        }
        if (failure instanceof KryoBufferUnderflowException) {
            return new SerializationException(
                    prefix + "the message is truncated, or longer than "
                            + SerializationConfig.MAX_MESSAGE_BYTES_PROP_NAME + " = " + config.maxMessageBytes()
                            + " bytes (" + failure.getMessage() + ")",
                    failure);
        }
        if (failure instanceof KryoException k
                && k.getMessage() != null
                && k.getMessage().startsWith("Max depth exceeded")) {
            return new SerializationException(
                    prefix + "objects are nested deeper than "
                            + SerializationConfig.MAX_DEPTH_PROP_NAME + " = " + config.maxDepth()
                            + " (a chain through a last self-typed field does not count; other nesting does)"
                            + cycleHint(),
                    failure);
        }
        return new SerializationException(prefix + "corrupt or unexpected data (" + failure + ")", failure);
    }
}
