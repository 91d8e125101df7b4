package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import com.esotericsoftware.kryo.util.IdentityMap;
import com.esotericsoftware.kryo.util.IdentityObjectIntMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.troupe.serialization.ClassNotAllowedException;
import org.troupe.serialization.NotSendableException;
import org.troupe.serialization.SerializationException;
import org.troupe.serialization.TroupeInput;

/**
 * The class table of one direction of one connection. A class is written by name the first time it crosses and
 * by a small id after that, for the life of the connection (Kryo's default forgets names after every object graph).
 * Ids are assigned in the order classes first cross, so the two peers need no shared registration order.
 *
 * <p>In the body of a message a class is {@code varint 0} for null or {@code varint id + 1} (ids 0..8 are Kryo's
 * built-in primitives and String). The classes a message is the first to use are defined in its header, before the
 * body, each as {@code varint id, string binary name, byte flags} (see {@link #TRACKED} and {@link #GENERATED}):
 * so a receiver learns every definition even when it then fails to read the body, and the two tables never drift
 * apart. A message that fails to <em>encode</em> was never sent, so the classes it defined are taken back
 * ({@link #rollback()}).
 *
 * <p>Every class is checked against the {@link AllowList} when Kryo first registers it (on both sides), and a name
 * read from the wire is checked before the class is even loaded. A definition the receiver refuses is remembered
 * as refused, so each message that uses it fails with the same clear error.
 */
public final class SessionClassResolver extends DefaultClassResolver {
    private static final int NULL_ID = 0;
    private static final int ID_OFFSET = 1;
    /** Definition flag: the sender tracks references to this class in every message. */
    static final int TRACKED = 1;
    /** Definition flag: the sender uses a generated serializer for this class (else Kryo's reflective one). */
    static final int GENERATED = 2;
    /** More distinct classes than any application sends; bounds what a hostile peer can make us store. */
    private static final int MAX_CLASSES = 1 << 16;

    private final AllowList allowList;

    // Writing side: the ids of classes this connection has defined, and a cache from any runtime class (an enum
    // constant's class maps to its enum) to what is written for it, so a class costs one lookup.
    private final IdentityObjectIntMap<Class<?>> writeIds = new IdentityObjectIntMap<>();
    private final IdentityMap<Class<?>, Written> written = new IdentityMap<>();
    private final List<Registration> writtenThisMessage = new ArrayList<>();
    private int nextWriteId;
    // The last two classes written: a message usually alternates between few classes.
    private Written memo0;
    private Written memo1;

    /** A runtime class, its registration and its wire id + 2. */
    private record Written(Class<?> type, Registration registration, int wireId) {}

    /**
     * Why a definition was refused: the class not allowed, or else the message. Kept small (no exception and its
     * stack), as a peer may send up to {@code MAX_CLASSES} of them.
     */
    private record Refusal(String notAllowed, String message) {
        RuntimeException toException(final AllowList allowList) {
            return notAllowed != null
                    ? new ClassNotAllowedException(notAllowed, allowList.config())
                    : new SerializationException(message);
        }
    }

    // Reading side: indexed by the id the writer gave; a refused definition leaves the reason it was refused.
    private Registration[] readTable = new Registration[64];
    private Refusal[] refusals = new Refusal[64];
    private int firstDefinableId;

    public SessionClassResolver(final AllowList allowList) {
        this.allowList = allowList;
    }

    /** Seeds both tables with Kryo's built-in registrations, which every peer has under the same ids. */
    void seedBuiltIns() {
        for (int id = 0; id < kryo.getNextRegistrationId(); id++) {
            final Registration r = getRegistration(id);
            if (r == null) {
                throw new IllegalStateException("Kryo built-in registration " + id + " is missing");
            }
            writeIds.put(r.getType(), id);
            readTable[id] = r;
        }
        nextWriteId = kryo.getNextRegistrationId();
        firstDefinableId = nextWriteId;
    }

    /**
     * Registers a class the first time it is met, if it may cross: a class that never can (a lambda, a thread, a JDK
     * class Troupe cannot rebuild) is refused as such, even when allowed, before the allow-list is asked.
     */
    @Override
    @SuppressWarnings("rawtypes")
    public Registration registerImplicit(final Class type) {
        final NotSendableException never = Unsendable.refusal(type, allowList);
        if (never != null) {
            throw never;
        }
        if (!allowList.allows(type)) {
            throw notAllowed(type);
        }
        final Serializer<?> serializer = kryo.getDefaultSerializer(type);
        Unsendable.checkSerializer(type, serializer);
        return register(new Registration(type, serializer, NAME));
    }

    /**
     * The refusal of a class outside the allow-list. A JDK class that could not be sent even if it were allowed is
     * refused as such: advice to allow it would lead to that second refusal.
     */
    private SerializationException notAllowed(final Class<?> type) {
        final Class<?> element = Unsendable.element(type);
        if (Unsendable.isJdk(element)) {
            try {
                Unsendable.checkSerializer(element, kryo.getDefaultSerializer(element));
            } catch (NotSendableException never) {
                return never;
            }
        }
        return new ClassNotAllowedException(type.getName(), allowList.config());
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Registration writeClass(final Output output, final Class type) {
        if (type == null) {
            output.writeVarInt(NULL_ID, true);
            return null;
        }
        Written w = memo0;
        if (w == null || w.type() != type) {
            w = memo1;
            if (w == null || w.type() != type) {
                w = written.get(type);
                if (w == null) {
                    return define(output, type);
                }
            }
            memo1 = memo0;
            memo0 = w;
        }
        output.writeVarInt(w.wireId(), true);
        return w.registration();
    }

    private Registration define(final Output output, final Class<?> type) {
        final Registration registration = kryo.getRegistration(type);
        final Class<?> wireType = registration.getType();
        int id = writeIds.get(wireType, -1);
        if (id < 0) {
            id = nextWriteId++;
            writeIds.put(wireType, id);
            writtenThisMessage.add(registration);
        }
        output.writeVarInt(id + ID_OFFSET, true);
        written.put(type, new Written(type, registration, id + ID_OFFSET));
        return registration;
    }

    @Override
    public Registration readClass(final Input input) {
        final int wireId = input.readVarInt(true);
        if (wireId == NULL_ID) {
            return null;
        }
        final int id = wireId - ID_OFFSET;
        final Registration registration = id < readTable.length ? readTable[id] : null;
        if (registration == null) {
            if (id < refusals.length && refusals[id] != null) {
                throw refusals[id].toException(allowList);
            }
            throw new KryoException("Corrupt message: class id " + id + " was never defined on this connection");
        }
        return registration;
    }

    /** Whether the message being written uses classes new to the connection, to be defined in its header. */
    boolean hasDefinitions() {
        return !writtenThisMessage.isEmpty();
    }

    /** Writes the header that defines the classes the message being written is the first to use. */
    void writeDefinitions(final Output out, final Set<Class<?>> tracked) {
        out.writeVarInt(writtenThisMessage.size(), true);
        for (final Registration r : writtenThisMessage) {
            out.writeVarInt(writeIds.get(r.getType(), -1), true);
            out.writeString(WireForms.wireName(r.getType(), r.getSerializer()));
            out.writeByte((tracked.contains(r.getType()) ? TRACKED : 0) | (isGenerated(r) ? GENERATED : 0));
        }
    }

    /**
     * Reads a message's definitions header into the table. A class this side may not or cannot load is recorded
     * as refused rather than failing here, so the whole header is read and later messages still find their ids.
     *
     * @param tracked the classes the sender tracks references to, updated from the definitions' flags
     */
    void readDefinitions(final TroupeInput in, final Set<Class<?>> tracked) {
        final int count = in.readVarInt(true);
        in.checkAvailable(count, 3);
        for (int i = 0; i < count; i++) {
            final int id = in.readVarInt(true);
            final String name = in.readString();
            final int flags = in.readByte();
            if (id < firstDefinableId || id >= MAX_CLASSES) {
                throw new KryoException("Corrupt message: class id " + id + " is out of range");
            }
            if (name == null || name.isEmpty() || (flags & ~(TRACKED | GENERATED)) != 0) {
                throw new KryoException("Corrupt message: malformed definition of class id " + id);
            }
            if (id >= readTable.length) {
                final int length = Math.max(id + 1, readTable.length * 2);
                readTable = Arrays.copyOf(readTable, length);
                refusals = Arrays.copyOf(refusals, length);
            }
            final Registration known = readTable[id];
            if (known != null) {
                if (!known.getType().getName().equals(name)) {
                    throw new KryoException("Corrupt message: class id " + id + " redefined from "
                            + known.getType().getName() + " to " + name);
                }
                continue;
            }
            try {
                final Registration registration = kryo.getRegistration(load(name));
                checkSameSerializer(registration, isGenerated(registration), (flags & GENERATED) != 0);
                readTable[id] = registration;
                refusals[id] = null;
                if ((flags & TRACKED) != 0) {
                    tracked.add(registration.getType());
                }
            } catch (RuntimeException refused) {
                refusals[id] = new Refusal(
                        refused instanceof ClassNotAllowedException c ? c.className() : null, refused.getMessage());
            }
        }
    }

    /** Both peers must serialize a class the same way; they differ only if generation failed on one side. */
    private boolean isGenerated(final Registration registration) {
        return WireForms.effective(kryo, registration.getSerializer()) instanceof GeneratedSerializer;
    }

    private static void checkSameSerializer(
            final Registration registration, final boolean generated, final boolean senderGenerated) {
        if (generated != senderGenerated) {
            final String local = generated ? "a generated serializer" : "Kryo's reflective serializer";
            final String remote = senderGenerated ? "a generated serializer" : "Kryo's reflective serializer";
            throw new SerializationException("Class " + registration.getType().getName() + " is written by the peer"
                    + " with " + remote + " but would be read here with " + local + "; the log of the side that uses"
                    + " the reflective one says why generation failed there");
        }
    }

    private Class<?> load(final String name) {
        if (name == null || name.isEmpty()) {
            throw new KryoException("Corrupt message: empty class name");
        }
        if (!allowList.allows(name)) {
            throw new ClassNotAllowedException(name, allowList.config());
        }
        try {
            return Class.forName(name, false, kryo.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new SerializationException("Class " + name + " named by the peer is not on this JVM's class path", e);
        }
    }

    /** Marks the start of a message to encode: the classes it defines can be taken back. */
    void mark() {
        if (!writtenThisMessage.isEmpty()) {
            writtenThisMessage.clear();
        }
    }

    /** Forgets the classes a message that failed to encode defined: it was never sent. */
    void rollback() {
        for (final Registration r : writtenThisMessage) {
            writeIds.remove(r.getType(), -1);
        }
        nextWriteId -= writtenThisMessage.size();
        writtenThisMessage.clear();
        written.clear();
        memo0 = null;
        memo1 = null;
    }

    /** Copies the connection's table into a resolver for a new Kryo instance (after a failure). */
    void copyTableTo(final SessionClassResolver fresh) {
        for (final var entry : writeIds) {
            fresh.writeIds.put(entry.key, entry.value);
        }
        fresh.nextWriteId = nextWriteId;
        fresh.refusals = refusals.clone();
        fresh.readTable = new Registration[readTable.length];
        for (int id = 0; id < readTable.length; id++) {
            if (readTable[id] != null) {
                fresh.readTable[id] = fresh.kryo.getRegistration(readTable[id].getType());
            }
        }
    }

    /** The table lives as long as the connection: nothing is forgotten between object graphs. */
    @Override
    public void reset() {}
}
