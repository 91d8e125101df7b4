package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Externalizable;
import java.io.File;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.configuration2.MapConfiguration;
import org.junit.jupiter.api.Test;

/**
 * A configuration with {@link SerializationConfig#javaSerialization()} (as {@code MPI.OBJECT}'s) sends the classes
 * that serialize themselves through the JDK's serialization, their own methods run, and keeps judging every class
 * by the allow-list; the JDK's classes are allowed one by one, by name.
 */
class JavaSerializationTest {
    /** Keeps a derived field transient, recomputed by its readObject; writes a version of its own. */
    static final class Mesh implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;

        final double[] nodes;
        transient double sum;
        transient int version;

        Mesh(final double... nodes) {
            this.nodes = nodes;
            this.sum = sum(nodes);
        }

        private static double sum(final double[] values) {
            double s = 0;
            for (final double v : values) {
                s += v;
            }
            return s;
        }

        @Serial
        private void writeObject(final ObjectOutputStream out) throws IOException {
            out.defaultWriteObject();
            out.writeInt(7);
        }

        @Serial
        private void readObject(final ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            version = in.readInt();
            sum = sum(nodes);
        }
    }

    /** One per JVM: readResolve gives the same instance back. */
    static final class Origin implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;

        static final Origin INSTANCE = new Origin();

        private Origin() {}

        @Serial
        private Object readResolve() {
            return INSTANCE;
        }
    }

    /** Writes and reads itself whole. */
    public static final class Cell implements Externalizable {
        int id;
        String name;

        public Cell() {}

        Cell(final int id, final String name) {
            this.id = id;
            this.name = name;
        }

        @Override
        public void writeExternal(final ObjectOutput out) throws IOException {
            out.writeInt(id);
            out.writeUTF(name);
        }

        @Override
        public void readExternal(final ObjectInput in) throws IOException {
            id = in.readInt();
            name = in.readUTF();
        }
    }

    /** Serializes itself, and holds whatever it is given. */
    static final class Box implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;

        final Object held;

        Box(final Object held) {
            this.held = held;
        }

        @Serial
        private void writeObject(final ObjectOutputStream out) throws IOException {
            out.defaultWriteObject();
        }
    }

    /** Not serializable. */
    static final class Plain {
        int n = 3;
    }

    private static SerializationConfig.Builder javaSerialization() {
        return Wire.TEST_CONFIG.toBuilder().javaSerialization(true);
    }

    @Test
    void shouldRunTheReadObjectAndWriteObjectOfAClassThatSerializesItself() {
        final Wire wire = new Wire(javaSerialization().build());
        final Mesh mesh = wire.roundTrip(new Mesh(1, 2, 3.5));
        assertEquals(6.5, mesh.sum, "readObject recomputed the transient field");
        assertEquals(7, mesh.version, "readObject read what writeObject wrote");
    }

    @Test
    void shouldNotRunReadObjectWhereJavaSerializationIsOff() {
        final Wire wire = Wire.permissive();
        final Mesh mesh = wire.roundTrip(new Mesh(1, 2, 3.5));
        assertEquals(3, mesh.nodes.length);
        assertEquals(0.0, mesh.sum, "Troupe's serializer sends fields and runs no readObject");
        assertEquals(0, mesh.version);
    }

    @Test
    void shouldHonourReadResolveAndExternalizable() {
        final Wire wire = new Wire(javaSerialization().build());
        assertSame(Origin.INSTANCE, wire.roundTrip(Origin.INSTANCE));
        final Cell cell = wire.roundTrip(new Cell(4, "wall"));
        assertEquals(4, cell.id);
        assertEquals("wall", cell.name);
    }

    @Test
    void shouldCarryObjectsThatSerializeThemselvesInsideOrdinaryOnes() {
        final Wire wire = new Wire(javaSerialization().build());
        final List<Object> list = new ArrayList<>(List.of(new Mesh(2, 2), "between", new Mesh(1)));
        final List<Object> back = wire.roundTrip(list);
        assertEquals(4.0, ((Mesh) back.get(0)).sum);
        assertEquals("between", back.get(1));
        assertEquals(1.0, ((Mesh) back.get(2)).sum);
    }

    @Test
    void shouldSendAJdkClassAllowedByNameThroughJavaSerializationWhenTroupeHasNoSerializerForIt() {
        final SerializationConfig config =
                javaSerialization().allowClassName(File.class.getName()).build();
        final File file = new File("/data/mesh.bin");
        assertEquals(file, new Wire(config).roundTrip(file));
        final SerializationConfig withoutJava = Wire.TEST_CONFIG.toBuilder()
                .allowClassName(File.class.getName())
                .build();
        assertThrows(NotSendableException.class, () -> new Wire(withoutJava).send(file));
    }

    @Test
    void shouldSendAJdkClassAllowedAloneThoughItExtendsAnAbstractOneOfTheJdk() {
        final SerializationConfig config = javaSerialization()
                .allowClassName(AtomicInteger.class.getName())
                .build();
        assertEquals(41, new Wire(config).roundTrip(new AtomicInteger(41)).get(), "its superclass Number came with it");
    }

    @Test
    void shouldSendVectorsHashtablesUuidsAndBitSetsWithTroupesSerializersOnceAllowed() {
        final SerializationConfig config = Wire.TEST_CONFIG.toBuilder()
                .allowClassName(Vector.class.getName(), Hashtable.class.getName(), UUID.class.getName())
                .allowClassName(BitSet.class.getName())
                .build();
        final Vector<Object> vector = new Vector<>(List.of(1, "two", 3.0));
        final Hashtable<String, Integer> table = new Hashtable<>(Map.of("a", 1, "b", 2));
        final Wire wire = new Wire(config);
        assertEquals(vector, wire.roundTrip(vector));
        assertEquals(table, wire.roundTrip(table));
        final UUID id = UUID.randomUUID();
        assertEquals(id, wire.roundTrip(id));
        final BitSet bits = BitSet.valueOf(new long[] {0b1011, -1L});
        assertEquals(bits, wire.roundTrip(bits));
    }

    @Test
    void shouldRefuseOnTheSendingSideAClassOutsideTheAllowListInsideAJavaSerializedObject() {
        final Wire wire = new Wire(javaSerialization().build());
        final ClassNotAllowedException e =
                assertThrows(ClassNotAllowedException.class, () -> wire.send(new Box(new File("x"))));
        assertEquals(File.class.getName(), e.className());
        assertTrue(
                e.getMessage().contains("-D" + SerializationConfig.ALLOWED_CLASSES_PROP_NAME + "=java.io.File"),
                e.getMessage());
    }

    @Test
    void shouldRefuseByNameOnTheReceivingSideAClassItDoesNotAllowInsideAJavaSerializedObject() {
        final SerializationConfig sender =
                javaSerialization().allowClassName(File.class.getName()).build();
        final Wire wire = new Wire(sender, javaSerialization().build());
        final byte[] message = wire.send(new Box(new File("x")));
        final ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> wire.receive(message));
        assertEquals(File.class.getName(), e.className());
    }

    @Test
    void shouldJudgeEveryObjectWrittenAfterAnExceptionOfTheProgramsGraph() {
        final Wire wire = new Wire(javaSerialization().build());
        final ClassNotAllowedException e = assertThrows(
                ClassNotAllowedException.class,
                () -> wire.send(new Box(new Object[] {new IOException("kept"), new File("x")})));
        assertEquals(IOException.class.getName(), e.className());
    }

    /**
     * Arrays nested in arrays each announce fewer elements than the block has bytes, but more than it has all told:
     * each would be made before its elements are read (a few bytes asking for gigabytes). The block is refused at
     * the first array past the total.
     */
    @Test
    void shouldRefuseABlockWhoseArraysAnnounceMoreElementsThanItHasBytes() {
        final Wire wire = new Wire(javaSerialization().build());
        Object[] nested = null;
        for (int level = 5; level >= 1; level--) {
            final Object[] a = new Object[1000 + level];
            a[0] = nested;
            nested = a;
        }
        final byte[] message = wire.send(new Box(new Object[] {new byte[4 << 20], nested}));
        for (int level = 1; level <= 5; level++) { // each array's length, big-endian in the block
            final int at =
                    indexOf(message, ByteBuffer.allocate(4).putInt(1000 + level).array());
            ByteBuffer.wrap(message, at, 4).putInt(4_000_000);
        }
        final SerializationException e = assertThrows(SerializationException.class, () -> wire.receive(message));
        assertTrue(e.getMessage().contains("REJECTED"), e.getMessage());
    }

    private static int indexOf(final byte[] bytes, final byte[] pattern) {
        outer:
        for (int i = 0; i + pattern.length <= bytes.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (bytes[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not in the message");
    }

    @Test
    void shouldSayWhichHeldObjectIsNotSerializable() {
        final Wire wire = new Wire(javaSerialization().build());
        final SerializationException e =
                assertThrows(SerializationException.class, () -> wire.send(new Box(new Plain())));
        assertTrue(
                e.getMessage().contains(Plain.class.getName()) && e.getMessage().contains("not Serializable"),
                e.getMessage());
    }

    @Test
    void shouldSendOneCopyOfAnObjectSharedAcrossAJavaSerializedBlock() {
        final Wire wire = new Wire(javaSerialization().build());
        final Mesh shared = new Mesh(1);
        final List<Object> back = wire.roundTrip(new ArrayList<>(List.of(new Box(shared), shared)), true);
        assertNotSame(((Box) back.get(0)).held, back.get(1), "a block is whole: what it shares arrives as a copy");
        assertInstanceOf(Mesh.class, back.get(1));
    }

    @Test
    void shouldReadSingleClassesFromTheSettingsAndRefuseAMalformedName() {
        final SerializationConfig config = SerializationConfig.fromSettings(new MapConfiguration(
                Map.of(SerializationConfig.ALLOWED_CLASSES_PROP_NAME, "java.util.Vector, java.util.BitSet")));
        assertEquals(List.of("java.util.Vector", "java.util.BitSet"), List.copyOf(config.allowedClassNames()));
        assertTrue(config.allowsClassName("java.util.Vector"));
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> SerializationConfig.fromSettings(
                        new MapConfiguration(Map.of(SerializationConfig.ALLOWED_CLASSES_PROP_NAME, "java.util.*"))));
        assertTrue(e.getMessage().contains("'java.util.*' is not a class's binary name"), e.getMessage());
    }
}
