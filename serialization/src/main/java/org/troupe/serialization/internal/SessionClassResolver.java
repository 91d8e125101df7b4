package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import com.esotericsoftware.kryo.util.IdentityMap;
import com.esotericsoftware.kryo.util.IdentityObjectIntMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.troupe.serialization.ClassNotAllowedException;
import org.troupe.serialization.SerializationException;

/**
 * The class table of one direction of one connection. A class is written by name the first time it crosses and
 * by a small id after that, for the life of the connection (Kryo's default forgets names after every object graph).
 * Ids are assigned in the order classes first cross, so the two peers need no shared registration order.
 *
 * <pre>
 *   varint 0        null
 *   varint 1        a class new to this connection: varint id, then its binary name as a string
 *   varint id + 2   a class defined before (ids 0..8 are Kryo's built-in primitives and String)
 * </pre>
 *
 * <p>Every class is checked against the {@link AllowList} when Kryo first registers it (on both sides), and a name
 * read from the wire is checked before the class is even loaded. A definition carries its id, so a message that
 * fails to decode half-way cannot shift the ids of later messages: they either find their classes or fail clearly.
 * A message that fails to <em>encode</em> was never sent, so the classes it defined are taken back
 * ({@link #rollback()}).
 */
public final class SessionClassResolver extends DefaultClassResolver {
    private static final int NULL_ID = 0;
    private static final int NEW_CLASS_ID = 1;
    private static final int ID_OFFSET = 2;
    /** More distinct classes than any application sends; bounds what a hostile peer can make us store. */
    private static final int MAX_CLASSES = 1 << 16;

    private final AllowList allowList;

    // Writing side: the ids of classes this connection has defined, and a cache from any runtime class (an enum
    // constant's class maps to its enum) to what is written for it, so a class costs one lookup.
    private final IdentityObjectIntMap<Class<?>> writeIds = new IdentityObjectIntMap<>();
    private final IdentityMap<Class<?>, Written> written = new IdentityMap<>();
    private final List<Class<?>> writtenThisMessage = new ArrayList<>();
    private int nextWriteId;
    // The last two classes written: a message usually alternates between few classes.
    private Written memo0;
    private Written memo1;

    /** A runtime class, its registration and its wire id + 2. */
    private record Written(Class<?> type, Registration registration, int wireId) {
    }

    // Reading side: indexed by the id the writer gave.
    private Registration[] readTable = new Registration[64];

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
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Registration registerImplicit(final Class type) {
        if (!allowList.allows(type)) {
            throw new ClassNotAllowedException(type.getName());
        }
        return super.registerImplicit(type);
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
            writtenThisMessage.add(wireType);
            output.writeVarInt(NEW_CLASS_ID, true);
            output.writeVarInt(id, true);
            output.writeString(wireType.getName());
        } else {
            output.writeVarInt(id + ID_OFFSET, true);
        }
        written.put(type, new Written(type, registration, id + ID_OFFSET));
        return registration;
    }

    @Override
    public Registration readClass(final Input input) {
        final int wireId = input.readVarInt(true);
        if (wireId == NULL_ID) {
            return null;
        }
        if (wireId == NEW_CLASS_ID) {
            return define(input.readVarInt(true), input.readString());
        }
        final int id = wireId - ID_OFFSET;
        final Registration registration = id >= 0 && id < readTable.length ? readTable[id] : null;
        if (registration == null) {
            throw new KryoException("Corrupt message: class id " + id + " was never defined on this connection");
        }
        return registration;
    }

    private Registration define(final int id, final String name) {
        if (id < 0 || id >= MAX_CLASSES) {
            throw new KryoException("Corrupt message: class id " + id + " is out of range");
        }
        final Registration registration = kryo.getRegistration(load(name));
        if (id >= readTable.length) {
            readTable = Arrays.copyOf(readTable, Math.max(id + 1, readTable.length * 2));
        }
        final Registration known = readTable[id];
        if (known != null && known.getType() != registration.getType()) {
            throw new KryoException("Corrupt message: class id " + id + " redefined from " + known.getType().getName()
                + " to " + name);
        }
        readTable[id] = registration;
        return registration;
    }

    private Class<?> load(final String name) {
        if (name == null || name.isEmpty()) {
            throw new KryoException("Corrupt message: empty class name");
        }
        if (!allowList.allows(name)) {
            throw new ClassNotAllowedException(name);
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
        for (final Class<?> c : writtenThisMessage) {
            writeIds.remove(c, -1);
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
        fresh.readTable = new Registration[readTable.length];
        for (int id = 0; id < readTable.length; id++) {
            if (readTable[id] != null) {
                fresh.readTable[id] = fresh.kryo.getRegistration(readTable[id].getType());
            }
        }
    }

    /** The table lives as long as the connection: nothing is forgotten between object graphs. */
    @Override
    public void reset() {
    }
}
