package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Externalizable;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamException;
import java.io.OutputStream;
import java.io.Serializable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import org.troupe.serialization.ClassNotAllowedException;
import org.troupe.serialization.SerializationConfig;
import org.troupe.serialization.SerializationException;
import org.troupe.serialization.TroupeInput;

/**
 * Writes an object with the JDK's serialization, inside a Troupe message, when the configuration asks for it
 * ({@link SerializationConfig#javaSerialization()}, as {@code MPI.OBJECT} does): for the classes that serialize
 * themselves ({@code writeObject}, {@code readObject}, {@code readResolve}, {@code writeReplace}, {@link
 * Externalizable}), whose own methods then run as Java programs expect, and for the JDK's serializable classes that
 * Troupe has no serializer for. The object travels as one block of bytes: what it shares with the rest of the
 * message arrives as a copy.
 *
 * <p>Reading keeps the allow-list: every class the block names is judged by name before it is loaded, with the
 * session's class loader, and a filter bounds the block's depth, references and arrays. Hashing is not bounded
 * inside a block (a {@code HashSet}'s own {@code readObject} hashes what it reads), which is why only
 * configurations for peers that run the same program turn it on.
 */
final class JavaStreamSerializer extends Serializer<Object> {
    /** Deep enough for the objects programs serialize themselves; the JDK's reading recurses on the stack. */
    private static final int MAX_BLOCK_DEPTH = 256;
    /** How many objects one block may hold; each takes a few bytes at least, so the block's size bounds it too. */
    private static final long MAX_BLOCK_REFERENCES = 10_000_000;

    private final AllowList allowList;
    private final ClassLoader loader;

    JavaStreamSerializer(final AllowList allowList) {
        this.allowList = allowList;
        final ClassLoader configured = allowList.config().classLoader();
        this.loader = configured != null ? configured : JavaStreamSerializer.class.getClassLoader();
    }

    /**
     * Whether {@code type} travels through the JDK's serialization under {@code config}: serializable, and either
     * serializing itself or a JDK class without a serializer of Troupe's ({@code jdkWithoutSerializer}).
     */
    static boolean wants(final Class<?> type, final boolean jdkWithoutSerializer) {
        if (!Serializable.class.isAssignableFrom(type) || type.isEnum() || type.isRecord() || type.isArray()) {
            return false;
        }
        return jdkWithoutSerializer || Externalizable.class.isAssignableFrom(type) || serializesItself(type);
    }

    /** Whether a class of the program, or one it extends, declares the methods of custom serialization. */
    private static boolean serializesItself(final Class<?> type) {
        for (Class<?> c = type; c != null && !Unsendable.isJdk(c); c = c.getSuperclass()) {
            for (final Method m : c.getDeclaredMethods()) {
                if (Modifier.isStatic(m.getModifiers())) {
                    continue;
                }
                final Class<?>[] p = m.getParameterTypes();
                final boolean custom = switch (m.getName()) {
                    case "writeObject" -> p.length == 1 && p[0] == ObjectOutputStream.class;
                    case "readObject" -> p.length == 1 && p[0] == ObjectInputStream.class;
                    case "readObjectNoData", "readResolve", "writeReplace" -> p.length == 0;
                    default -> false;
                };
                if (custom) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public void write(final Kryo kryo, final Output output, final Object object) {
        final Block bytes = new Block();
        try (ObjectOutputStream out = new CheckedOutput(bytes)) {
            out.writeObject(object);
        } catch (NotSerializableException e) {
            throw new SerializationException("Class " + e.getMessage() + " is not Serializable, and an object of "
                    + object.getClass().getName() + ", which serializes itself with Java serialization, holds one:"
                    + " make it Serializable, or transient in the class that holds it");
        } catch (ClassRefused e) {
            throw e.refusal;
        } catch (IOException e) {
            throw new SerializationException(
                    "Java serialization of " + object.getClass().getName() + " failed: " + e, e);
        }
        output.writeVarInt(bytes.size(), true);
        output.writeBytes(bytes.buffer(), 0, bytes.size());
    }

    @Override
    public Object read(final Kryo kryo, final Input input, final Class<?> type) {
        final int length = input.readVarInt(true);
        if (length < 0 || length > ((TroupeInput) input).remaining()) {
            throw new SerializationException("Corrupt message: a Java-serialized block of " + length
                    + " bytes announced where " + ((TroupeInput) input).remaining() + " are left");
        }
        final byte[] block = input.readBytes(length);
        final Object object;
        try (ObjectInputStream in = new CheckedInput(new ByteArrayInputStream(block), length)) {
            object = in.readObject();
        } catch (ClassRefused e) {
            throw e.refusal;
        } catch (IOException | ClassNotFoundException e) {
            throw new SerializationException("A Java-serialized " + type.getName() + " could not be read: " + e, e);
        }
        if (!type.isInstance(object)) { // a readResolve may return anything: it goes where the class written does
            throw new SerializationException("A Java-serialized " + type.getName() + " was read as a "
                    + (object == null ? "null" : object.getClass().getName()));
        }
        return object;
    }

    /** The bytes of a block, copied once more only into the message. */
    private static final class Block extends ByteArrayOutputStream {
        byte[] buffer() {
            return buf;
        }
    }

    /** Carries a refusal of the allow-list through the JDK's streams, which only let IOExceptions out. */
    private static final class ClassRefused extends ObjectStreamException {
        private static final long serialVersionUID = 1L;
        private final transient ClassNotAllowedException refusal;

        ClassRefused(final ClassNotAllowedException refusal) {
            super(refusal.getMessage());
            this.refusal = refusal;
        }
    }

    /** Checks each object written against the allow-list, so that the sender is told, not the receiver. */
    private final class CheckedOutput extends ObjectOutputStream {
        private boolean givingUp;

        CheckedOutput(final OutputStream out) throws IOException {
            super(out);
            enableReplaceObject(true);
        }

        /** The object's class and the serializable classes it extends, which the block names as well. */
        @Override
        protected Object replaceObject(final Object object) throws IOException {
            // The stream's own failure (NotSerializableException, a refusal), which it writes into itself with what
            // it holds as it gives up, then rethrows: the block is abandoned. (An ObjectStreamException of the
            // program's own graph ends the checks here too; the receiver judges its classes by name all the same.)
            givingUp |= object instanceof ObjectStreamException;
            if (object == null || givingUp) {
                return object;
            }
            // The serializable classes it extends are named too, and judged as well, but for the JDK's abstract
            // ones (Number, AbstractMap...), which nothing can instantiate: an allowed class brings them.
            for (Class<?> c = object.getClass(); c != null; c = c.getSuperclass()) {
                if (c == object.getClass()
                        || (Serializable.class.isAssignableFrom(c) && !AllowList.abstractJdkType(c))) {
                    if (!allowList.allows(c)) {
                        throw new ClassRefused(new ClassNotAllowedException(c.getName(), allowList.config()));
                    }
                }
            }
            return object;
        }
    }

    /** Resolves classes with the session's loader once the allow-list admits their names; bounds the block. */
    private final class CheckedInput extends ObjectInputStream {
        /** The elements of the arrays read so far. */
        private long arrayElements;

        CheckedInput(final ByteArrayInputStream in, final int length) throws IOException {
            super(in);
            setObjectInputFilter(info -> {
                // Each element of each array takes a byte of the block at least: arrays nested in arrays cannot
                // announce more elements, all told, than it has bytes (each is made before its elements are read).
                if (info.arrayLength() > 0) {
                    arrayElements += info.arrayLength();
                }
                if (info.depth() > MAX_BLOCK_DEPTH
                        || info.references() > MAX_BLOCK_REFERENCES
                        || arrayElements > length) {
                    return ObjectInputFilter.Status.REJECTED;
                }
                return ObjectInputFilter.Status.UNDECIDED; // classes are judged in resolveClass, by name
            });
        }

        @Override
        protected Class<?> resolveClass(final ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            final String name = desc.getName();
            if (!allowList.allows(name) && !AllowList.abstractJdkType(name)) { // see CheckedOutput
                throw new ClassRefused(new ClassNotAllowedException(name, allowList.config()));
            }
            try {
                return Class.forName(name, false, loader);
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc); // primitives' names
            }
        }

        @Override
        protected Class<?> resolveProxyClass(final String[] interfaces) throws IOException {
            throw new InvalidClassException("a proxy", "proxies do not travel in Java-serialized blocks");
        }
    }
}
