package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.troupe.serialization.GraphAssert.assertGraphEquals;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.apache.commons.configuration2.MapConfiguration;
import org.junit.jupiter.api.Test;
import org.troupe.serialization.fixtures.Counted;
import org.troupe.serialization.fixtures.Harmless;
import org.troupe.serialization.fixtures.TrapFlags;
import org.troupe.serialization.internal.AllowList;

/**
 * Only allowed classes are written, and only allowed classes are loaded or instantiated from the wire: a refused
 * class is judged by its name, before it is loaded.
 */
class AllowListTest {
    record Allowed(int n) {}

    record Refused(int n) {}

    record Holder(Object value) {}

    static final class WithRefusedField {
        Refused refused;
    }

    @Test
    void shouldRoundTripTheBuiltInSafeTypesWithTheDefaults() {
        final Wire wire = new Wire(SerializationConfig.defaults());
        final List<Object> messages = List.of(
                42,
                -7L,
                2.5,
                1.5f,
                (short) 3,
                (byte) 4,
                'c',
                true,
                "text",
                new double[] {1, 2},
                new int[][] {{1}, null},
                new ArrayList<>(List.of(1, "two")),
                new HashMap<>(Map.of("k", 1)),
                new HashSet<>(Set.of("s")),
                ArraySlice.of(new double[] {1, 2, 3}, 1, 2));
        for (final Object m : messages) {
            final Object copy = wire.roundTrip(m);
            if (m instanceof ArraySlice<?> slice) {
                assertArrayEquals(new double[] {2, 3}, (double[]) ((ArraySlice<?>) copy).array());
                assertEquals(slice.length(), ((ArraySlice<?>) copy).length());
            } else {
                assertGraphEquals(m, copy);
            }
        }
    }

    @Test
    void shouldRefuseToEncodeAClassThatIsNotAllowed() {
        final Wire wire = new Wire(SerializationConfig.defaults());
        final ClassNotAllowedException e =
                assertThrows(ClassNotAllowedException.class, () -> wire.send(new Refused(1)));
        assertEquals(Refused.class.getName(), e.className());
        assertTrue(e.getMessage().contains(Refused.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains(SerializationConfig.ALLOWED_PACKAGES_PROP_NAME), e.getMessage());
    }

    @Test
    void shouldRefuseToEncodeANotAllowedClassDeepInTheGraph() {
        final Wire wire = new Wire(SerializationConfig.builder()
                .allowClass(Allowed.class, Holder.class)
                .build());
        final ArrayList<Object> list = new ArrayList<>(List.of(new Allowed(1), new Holder(new Holder(new Refused(2)))));
        final ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> wire.send(list));
        assertEquals(Refused.class.getName(), e.className());
        assertTrue(e.getMessage().contains(SerializationConfig.ALLOWED_PACKAGES_PROP_NAME), e.getMessage());
        // A refused array element and a refused field type are refused too.
        final ClassNotAllowedException array =
                assertThrows(ClassNotAllowedException.class, () -> wire.send(new Refused[] {new Refused(1)}));
        assertTrue(array.getMessage().contains(Refused.class.getName()), array.getMessage());
        final WithRefusedField w = new WithRefusedField();
        assertThrows(
                ClassNotAllowedException.class,
                () -> new Wire(SerializationConfig.builder()
                                .allowClass(WithRefusedField.class)
                                .build())
                        .send(w));
    }

    @Test
    void shouldSuggestTheElementClassesPackageWhenAnArrayIsRefused() {
        final Wire wire = new Wire(SerializationConfig.defaults());
        final ClassNotAllowedException e =
                assertThrows(ClassNotAllowedException.class, () -> wire.send(new Refused[][] {{new Refused(1)}}));
        assertEquals(
                "Array class [[L" + Refused.class.getName() + "; (element " + Refused.class.getName() + ") is not"
                        + " allowed to cross the wire; allow its package: -D"
                        + SerializationConfig.ALLOWED_PACKAGES_PROP_NAME
                        + "=org.troupe.serialization (with bin/deploy: JAVA_OPTS=-D"
                        + SerializationConfig.ALLOWED_PACKAGES_PROP_NAME
                        + "=org.troupe.serialization bin/deploy ...), or in code"
                        + " SerializationConfig.Builder.allowPackage(\"org.troupe.serialization\")",
                e.getMessage());
    }

    /** The advice gives the exact value to set: the packages allowed now, and the refused class's. */
    @Test
    void shouldAdviseTheExactValueOfTheAllowedPackagesToSet() {
        final SerializationConfig config =
                SerializationConfig.builder().allowPackage("org.acme.util").build();
        assertEquals(
                "allow its package: -Dtroupe.serialization.allowedPackages=org.acme.util,org.acme.pi (with"
                        + " bin/deploy: JAVA_OPTS=-Dtroupe.serialization.allowedPackages=org.acme.util,org.acme.pi bin/deploy ...),"
                        + " or in code SerializationConfig.Builder.allowPackage(\"org.acme.pi\")",
                config.howToAllow("org.acme.pi.Worker"));
        final ClassNotAllowedException e =
                assertThrows(ClassNotAllowedException.class, () -> new Wire(config).send(new Refused(1)));
        assertEquals(
                "Class " + Refused.class.getName() + " is not allowed to cross the wire; "
                        + config.howToAllow(Refused.class.getName()),
                e.getMessage());
        // The same advice when the class is refused on reading.
        final Wire reading = new Wire(Wire.TEST_CONFIG, config);
        final ClassNotAllowedException read =
                assertThrows(ClassNotAllowedException.class, () -> reading.receive(reading.send(new Refused(1))));
        assertEquals(e.getMessage(), read.getMessage());
    }

    @Test
    void shouldAdviseAllowingOneClassWhereNoPackageCanBe() {
        final SerializationConfig config = SerializationConfig.defaults();
        assertEquals(
                "it is in the unnamed package, which cannot be allowed whole: move it into a package, or allow"
                        + " it alone with -Dtroupe.serialization.allowedClasses=Main$Task (or in code"
                        + " SerializationConfig.Builder.allowClass(Main.Task.class))",
                config.howToAllow("Main$Task"));
        assertEquals(
                "it is in the unnamed package, which cannot be allowed whole: move it into a package",
                config.howToAllow("Main$1"),
                "an anonymous class cannot be named in code");
        assertEquals(
                "a JDK package cannot be allowed whole: allow the class alone, in every JVM's configuration, with"
                        + " -Dtroupe.serialization.allowedClasses=java.util.Optional (or in code"
                        + " SerializationConfig.Builder.allowClass(Optional.class))",
                config.howToAllow("java.util.Optional"));
        assertTrue(
                SerializationConfig.builder()
                        .allowClassName("java.util.Vector")
                        .build()
                        .howToAllow("java.util.Optional")
                        .contains("-Dtroupe.serialization.allowedClasses=java.util.Vector,java.util.Optional "),
                "the advice keeps the classes allowed already");
        assertEquals("a JDK package cannot be allowed whole", config.howToAllow("java.util.HashMap$1"));
    }

    @Test
    void shouldAllowAnAllowedClassAsFieldArrayElementAndRuntimeType() {
        final Wire wire = new Wire(SerializationConfig.builder()
                .allowClass(Allowed.class, Holder.class)
                .build());
        assertEquals(new Allowed(1), wire.roundTrip(new Allowed(1)));
        assertEquals(new Holder(new Allowed(2)), wire.roundTrip(new Holder(new Allowed(2))));
        assertGraphEquals(new Allowed[] {new Allowed(3), null}, wire.roundTrip(new Allowed[] {new Allowed(3), null}));
        assertGraphEquals(new Allowed[][] {{new Allowed(4)}}, wire.roundTrip(new Allowed[][] {{new Allowed(4)}}));
    }

    @Test
    void shouldAllowAPackageAndItsSubPackagesOnly() {
        final Wire sub = new Wire(
                SerializationConfig.builder().allowPackage("org.troupe").build());
        assertEquals(42, sub.roundTrip(new Harmless(42)).value);
        final Wire prefixOfName = new Wire(SerializationConfig.builder()
                .allowPackage("org.troupe.serialization.fix")
                .build());
        final ClassNotAllowedException e =
                assertThrows(ClassNotAllowedException.class, () -> prefixOfName.send(new Harmless(1)));
        assertEquals(TrapFlags.HARMLESS, e.className());
    }

    @Test
    void shouldRefuseAMessageSizeNoFrameCanCarry() {
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> SerializationConfig.builder().maxMessageBytes(Integer.MAX_VALUE));
        assertTrue(
                e.getMessage().contains(SerializationConfig.MAX_MESSAGE_BYTES_PROP_NAME)
                        && e.getMessage().contains(String.valueOf(SerializationConfig.MAX_MESSAGE_BYTES_LIMIT)),
                e.getMessage());
        assertEquals(
                SerializationConfig.MAX_MESSAGE_BYTES_LIMIT,
                SerializationConfig.builder()
                        .maxMessageBytes(SerializationConfig.MAX_MESSAGE_BYTES_LIMIT)
                        .build()
                        .maxMessageBytes());
    }

    @Test
    void shouldRefuseMalformedPackageNames() {
        assertThrows(
                IllegalArgumentException.class,
                () -> SerializationConfig.builder().allowPackage(""));
        assertThrows(
                IllegalArgumentException.class,
                () -> SerializationConfig.builder().allowPackage(".org"));
        assertThrows(
                IllegalArgumentException.class,
                () -> SerializationConfig.builder().allowPackage("org."));
    }

    @Test
    void shouldRefuseToAllowAJdkPackageWholeAndNameTheWayToAllowOneClass() {
        for (final String jdk : List.of(
                "java", "javax", "java.util", "java.lang.invoke", "jdk", "sun", "com.sun", "com", "javax.management")) {
            final IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> SerializationConfig.builder().allowPackage(jdk),
                    jdk);
            assertTrue(
                    e.getMessage().contains("'" + jdk + "'")
                            && e.getMessage().contains(SerializationConfig.ALLOWED_CLASSES_PROP_NAME),
                    e.getMessage());
        }
        // Packages that merely begin with the same letters are not the JDK's.
        SerializationConfig.builder()
                .allowPackage("javafoo", "com.acme", "sunrise.solver", "jdkx")
                .build();
    }

    @Test
    void shouldRefuseToAllowAJdkPackageFromTheSettings() {
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> SerializationConfig.fromSettings(new MapConfiguration(
                        Map.of(SerializationConfig.ALLOWED_PACKAGES_PROP_NAME, "org.acme,java.util"))));
        assertTrue(e.getMessage().contains("'java.util'"), e.getMessage());
    }

    @Test
    void shouldRefuseOnDecodeAClassTheSenderAllowed() {
        final SerializationConfig permissive = SerializationConfig.builder()
                .allowClass(Allowed.class, Holder.class, Refused.class)
                .build();
        final SerializationConfig strict = SerializationConfig.builder()
                .allowClass(Allowed.class, Holder.class)
                .build();
        final Wire wire = new Wire(permissive, strict);
        final byte[] message = wire.send(new Holder(new Refused(1)));
        final ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> wire.receive(message));
        assertEquals(Refused.class.getName(), e.className());
        assertTrue(e.getMessage().contains(SerializationConfig.ALLOWED_PACKAGES_PROP_NAME), e.getMessage());
        assertEquals(new Holder(new Allowed(2)), wire.receive(wire.send(new Holder(new Allowed(2)))));
    }

    @Test
    void shouldRefuseOnDecodeBeforeInstantiating() {
        final SerializationConfig permissive = SerializationConfig.builder()
                .allowPackage("org.troupe.serialization.fixtures")
                .allowClass(Holder.class)
                .build();
        final SerializationConfig strict =
                SerializationConfig.builder().allowClass(Holder.class).build();
        final Wire wire = new Wire(permissive, strict);
        final byte[] message = wire.send(new Holder(new Counted(5)));
        final int constructed = TrapFlags.COUNTED_CONSTRUCTED.get();
        final ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> wire.receive(message));
        assertEquals(Counted.class.getName(), e.className());
        assertEquals(constructed, TrapFlags.COUNTED_CONSTRUCTED.get(), "a refused class must not be instantiated");
    }

    /**
     * The message names {@code Trapdoor}, a class on the class path that nothing has loaded: the test never refers
     * to it but by name, and the bytes are a message for {@code Harmless} (same name length, same fields) with the
     * name patched. Refusing it must not load it (JFR sees no class-load event), let alone run its static
     * initializer or constructor. Then a receiver that allows it decodes the same bytes, proving they name a class
     * that loads.
     */
    @Test
    void shouldRefuseOnDecodeBeforeLoadingTheClass() throws IOException {
        final SerializationConfig permissive = SerializationConfig.builder()
                .allowPackage("org.troupe.serialization.fixtures")
                .build();
        final SerializationConfig strict =
                SerializationConfig.builder().allowClass(Harmless.class).build();
        final CodecSession sender = new CodecSession(permissive);
        final byte[] harmless = sender.encoder().encodeToBytes(new Harmless(7));
        final byte[] trapdoor = patchClassName(harmless, TrapFlags.HARMLESS, TrapFlags.TRAPDOOR);

        final List<String> loaded;
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ClassLoad").withoutThreshold();
            recording.enable("jdk.ClassDefine").withoutThreshold();
            recording.start();
            final CodecSession receiver = new CodecSession(strict);
            final ClassNotAllowedException e = assertThrows(
                    ClassNotAllowedException.class, () -> receiver.decoder().decode(trapdoor, Object.class));
            assertEquals(TrapFlags.TRAPDOOR, e.className());
            assertEquals(7, receiver.decoder().decode(harmless, Harmless.class).value, "the receiver still works");
            Class.forName(TrapFlags.PROBE, false, AllowListTest.class.getClassLoader());
            recording.stop();
            loaded = loadedClasses(recording);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
        assertTrue(loaded.contains(TrapFlags.PROBE), "the recording must see class loads: " + loaded);
        assertFalse(loaded.contains(TrapFlags.TRAPDOOR), "a refused class must not be loaded");
        assertFalse(TrapFlags.TRAPDOOR_INITIALIZED.get(), "a refused class must not be initialized");
        assertEquals(0, TrapFlags.TRAPDOOR_CONSTRUCTED.get(), "a refused class must not be instantiated");

        // Positive control: the patched bytes do name a real class with the same fields.
        final Object decoded = new CodecSession(permissive).decoder().decode(trapdoor, Object.class);
        assertEquals(TrapFlags.TRAPDOOR, decoded.getClass().getName());
        assertTrue(TrapFlags.TRAPDOOR_INITIALIZED.get());
    }

    @Test
    void shouldRefuseOnDecodeAClassNameThatDoesNotExist() {
        final SerializationConfig permissive = SerializationConfig.builder()
                .allowPackage("org.troupe.serialization.fixtures")
                .build();
        final byte[] harmless = new CodecSession(permissive).encoder().encodeToBytes(new Harmless(7));
        final byte[] missing =
                patchClassName(harmless, TrapFlags.HARMLESS, "org.troupe.serialization.fixtures.Nowhere!");
        final SerializationException e = assertThrows(
                SerializationException.class,
                () -> new CodecSession(permissive).decoder().decode(missing, Object.class));
        assertTrue(e.getMessage().contains("Nowhere!"), "the error names the missing class: " + e.getMessage());
    }

    @Test
    void shouldRefuseOnDecodeAJdkClassThatIsNotAllowed() {
        final SerializationConfig permissive = SerializationConfig.builder()
                .allowPackage("org.troupe.serialization.fixtures")
                .build();
        final byte[] harmless = new CodecSession(permissive).encoder().encodeToBytes(new Harmless(7));
        // Same length as the fixture's name, so only the name changes.
        final String gadget = padTo("java.util.concurrent.ConcurrentSkipListMap", TrapFlags.HARMLESS.length());
        final byte[] patched = patchClassName(harmless, TrapFlags.HARMLESS, gadget);
        final SerializationException e = assertThrows(
                SerializationException.class,
                () -> new CodecSession(permissive).decoder().decode(patched, Object.class));
        assertInstanceOf(ClassNotAllowedException.class, e, e.getMessage());
    }

    /**
     * An array of a JDK interface or abstract class is a container: it travels, empty or holding allowed objects,
     * and an element that is not allowed is still refused. A concrete JDK class's array is judged as the class is.
     */
    @Test
    void shouldSendArraysOfJdkInterfacesAndAbstractClassesJudgingEachElement() {
        final CodecSession session =
                new CodecSession(SerializationConfig.builder().build());
        final Object[] arrays = {
            new Runnable[0],
            new Comparable<?>[] {"a", 1},
            new CharSequence[] {"x", null},
            new Number[] {1, 2.0},
            new Serializable[][] {{"s"}},
            new Object[] {new Comparable<?>[] {3L}}
        };
        for (final Object array : arrays) {
            final Object back = session.decoder().decode(session.encoder().encodeToBytes(array), Object.class);
            assertEquals(array.getClass(), back.getClass());
            assertTrue(Arrays.deepEquals((Object[]) array, (Object[]) back), Arrays.deepToString((Object[]) back));
        }
        final Comparable<?>[] refusedElement = {new Date(0)};
        assertThrows(ClassNotAllowedException.class, () -> session.encoder().encodeToBytes(refusedElement));
        assertThrows(ClassNotAllowedException.class, () -> session.encoder().encodeToBytes(new Date[0]));
        final AllowList list = new AllowList(SerializationConfig.builder().build(), List.of());
        assertTrue(list.allows("[Ljava.lang.Runnable;") && list.allows("[[Ljava.lang.Number;"));
        assertFalse(list.allows("java.lang.Runnable"), "the type itself is not allowed by this");
        assertFalse(list.allows("[Ljava.lang.Thread;") || list.allows("[Ljava.util.concurrent.ConcurrentSkipListMap;"));
        assertFalse(list.allows("[Lorg.troupe.serialization.fixtures.Harmless;"), "nor any other package's");
    }

    // --- Helpers ---

    /** Replaces a class name in a message by another of the same length, keeping Kryo's end-of-string bit. */
    static byte[] patchClassName(final byte[] message, final String from, final String to) {
        assertEquals(from.length(), to.length(), "names of the same length only");
        final int at = Wire.indexOfAscii(message, from);
        assertTrue(at >= 0, () -> from + " not found in " + Wire.hex(message));
        final byte[] patched = message.clone();
        for (int i = 0; i < to.length(); i++) {
            patched[at + i] = (byte) ((message[at + i] & 0x80) | to.charAt(i));
        }
        assertFalse(Arrays.equals(message, patched));
        return patched;
    }

    private static String padTo(final String name, final int length) {
        if (name.length() > length) {
            return name.substring(0, length);
        }
        return name + "$".repeat(length - name.length());
    }

    private static List<String> loadedClasses(final Recording recording) throws IOException {
        final Path file = Files.createTempFile("allow-list-test", ".jfr");
        try {
            recording.dump(file);
            final List<String> names = new ArrayList<>();
            for (final RecordedEvent event : RecordingFile.readAllEvents(file)) {
                for (final String field : List.of("loadedClass", "definedClass")) {
                    if (event.hasField(field)) {
                        final RecordedClass c = event.getClass(field);
                        if (c != null) {
                            names.add(c.getName());
                        }
                    }
                }
            }
            return names;
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
