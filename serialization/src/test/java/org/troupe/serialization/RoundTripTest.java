package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.troupe.serialization.GraphAssert.assertGraphEquals;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.troupe.serialization.fixtures.ForeignBase;

/**
 * What the generated serializers write and read back: every kind of field, class shape and standard container, plus
 * the exact steady-state length of representative messages (the first message of a class also carries its name, so
 * lengths are pinned on the second).
 *
 * <p>Steady-state layout: a flags byte, the root's class id (one varint byte for the first hundred classes), then
 * the fields: fixed-width little-endian primitives, a varint {@code length + 1} then the elements for a primitive
 * array, a not-null byte before an object in a field of final type, a class id (0 = null) before an object in a field
 * of any other type.
 */
class RoundTripTest {
    // --- Test data ---

    record Point(int x, int y) {}

    record Segment(Point from, Point to) {}

    record Samples(String name, double[] values, int[][] grid, Point origin) {}

    record Empty() {}

    record Positive(int n) {
        Positive {
            if (n <= 0) {
                throw new IllegalArgumentException("n must be positive, got " + n);
            }
        }
    }

    static final class Primitives {
        byte b;
        short s;
        char c;
        int i;
        long l;
        float f;
        double d;
        boolean z;
    }

    static final class Boxes {
        Byte b;
        Short s;
        Character c;
        Integer i;
        Long l;
        Float f;
        Double d;
        Boolean z;
    }

    /** Private and final fields, no no-argument constructor. */
    static final class Account {
        private final String owner;
        private final long balance;
        private int version;
        private transient int cache = 42;

        Account(final String owner, final long balance, final int version) {
            this.owner = owner;
            this.balance = balance;
            this.version = version;
        }
    }

    static class Base {
        private int id;
        protected String label;

        Base() {}

        Base(final int id, final String label) {
            this.id = id;
            this.label = label;
        }

        int baseId() {
            return id;
        }
    }

    /** Shadows its superclass's private {@code id}: both must cross. */
    static final class Derived extends Base {
        private int id;
        private double weight;

        Derived() {}

        Derived(final int baseId, final String label, final int id, final double weight) {
            super(baseId, label);
            this.id = id;
            this.weight = weight;
        }
    }

    static final class ForeignDerived extends ForeignBase {
        private final String own;

        ForeignDerived(
                final int secret, final String note, final long stamp, final double[] weights, final String own) {
            super(secret, note, stamp, weights);
            this.own = own;
        }
    }

    enum Color {
        RED,
        GREEN,
        BLUE
    }

    enum Op {
        PLUS {
            @Override
            int apply(final int a, final int b) {
                return a + b;
            }
        },
        TIMES {
            @Override
            int apply(final int a, final int b) {
                return a * b;
            }
        };

        abstract int apply(int a, int b);
    }

    record Instruction(Op op, Color color, Object anyEnum) {}

    interface Shape {}

    record Circle(double r) implements Shape {}

    record Square(double side) implements Shape {}

    /** Point is a record, so final: the field needs no class id. */
    record FinalField(Point p) {}

    record ObjectField(Object value) {}

    record InterfaceField(Shape shape) {}

    record BaseField(Base base) {}

    record DoublesHolder(double[] values) {}

    static final class AllArrays {
        boolean[] z;
        byte[] b;
        short[] s;
        char[] c;
        int[] i;
        long[] l;
        float[] f;
        double[] d;

        static AllArrays ofLength(final int n) {
            final AllArrays a = new AllArrays();
            a.z = new boolean[n];
            a.b = new byte[n];
            a.s = new short[n];
            a.c = new char[n];
            a.i = new int[n];
            a.l = new long[n];
            a.f = new float[n];
            a.d = new double[n];
            for (int k = 0; k < n; k++) {
                a.z[k] = k % 3 == 0;
                a.b[k] = (byte) (k * 7 - 100);
                a.s[k] = (short) (k * 1013 - 30000);
                a.c[k] = (char) ('a' + k % 26 + (k % 5 == 0 ? 0x4E00 : 0));
                a.i[k] = k * 100_003 - 7;
                a.l[k] = k * 10_000_000_019L - Long.MAX_VALUE / 3;
                a.f[k] = k * 0.25f - 3.5f;
                a.d[k] = k * Math.PI - 1e300 / (k + 1);
            }
            return a;
        }
    }

    static final class Grids {
        double[][] doubles;
        int[][][] ints;
        Object any;
    }

    record Inventory(
            List<String> names,
            Map<String, Integer> counts,
            Set<Color> colors,
            Deque<Point> queue,
            LinkedList<Double> history) {}

    static final class Texts {
        String a;
        String b;
        Object c;
    }

    private final Wire wire = Wire.permissive();

    // --- Fields and class shapes ---

    @Test
    void shouldRoundTripAllPrimitiveTypesAtTheirEdges() {
        for (final boolean max : new boolean[] {false, true}) {
            final Primitives p = new Primitives();
            p.b = max ? Byte.MAX_VALUE : Byte.MIN_VALUE;
            p.s = max ? Short.MAX_VALUE : Short.MIN_VALUE;
            p.c = max ? Character.MAX_VALUE : Character.MIN_VALUE;
            p.i = max ? Integer.MAX_VALUE : Integer.MIN_VALUE;
            p.l = max ? Long.MAX_VALUE : Long.MIN_VALUE;
            p.f = max ? Float.NaN : -0.0f;
            p.d = max ? Double.POSITIVE_INFINITY : Double.MIN_VALUE;
            p.z = max;
            final Primitives copy = wire.roundTrip(p);
            assertGraphEquals(p, copy);
            assertEquals(Float.floatToRawIntBits(p.f), Float.floatToRawIntBits(copy.f), "float bits");
        }
    }

    @Test
    void shouldWritePrimitiveFieldsFixedWidth() {
        final Primitives p = new Primitives();
        p.i = 1;
        p.l = -1;
        // flags + class id + byte 1 + short 2 + char 2 + int 4 + long 8 + float 4 + double 8 + boolean 1
        assertGraphEquals(p, wire.roundTrip(1 + 1 + 30, p));
    }

    @Test
    void shouldRoundTripBoxedTypesAndTheirNulls() {
        final Boxes full = new Boxes();
        full.b = (byte) -3;
        full.s = (short) 300;
        full.c = 'é';
        full.i = -70_000;
        full.l = 1L << 40;
        full.f = 1.5f;
        full.d = -2.25;
        full.z = Boolean.TRUE;
        assertGraphEquals(full, wire.roundTrip(full));
        final Boxes empty = new Boxes();
        assertGraphEquals(empty, wire.roundTrip(empty));
    }

    @Test
    void shouldRoundTripPrivateAndFinalFieldsWithoutANoArgumentConstructor() {
        final Account account = new Account("Ada", 1_000_000_007L, 3);
        final Account copy = wire.roundTrip(account);
        assertEquals("Ada", copy.owner);
        assertEquals(1_000_000_007L, copy.balance);
        assertEquals(3, copy.version);
    }

    @Test
    void shouldNotSendTransientFields() {
        final Account account = new Account("Ada", 1, 1);
        account.cache = 7;
        final Account copy = wire.roundTrip(account);
        assertEquals(0, copy.cache, "a transient field is not sent, so the copy has its default value");
    }

    @Test
    void shouldRoundTripSuperclassFieldsIncludingShadowedPrivateOnes() {
        final Derived d = new Derived(11, "base label", 22, 0.5);
        final Derived copy = wire.roundTrip(d);
        assertEquals(11, copy.baseId());
        assertEquals("base label", copy.label);
        assertEquals(22, copy.id);
        assertEquals(0.5, copy.weight);
    }

    @Test
    void shouldRoundTripSuperclassFieldsDeclaredInAnotherPackage() {
        final ForeignDerived d = new ForeignDerived(-5, "package-private", 1L << 50, new double[] {1, 2}, "own");
        final ForeignDerived copy = wire.roundTrip(d);
        assertEquals(-5, copy.secret());
        assertEquals("package-private", copy.packageNote());
        assertEquals(1L << 50, copy.stamp());
        assertArrayEquals(new double[] {1, 2}, copy.weights);
        assertEquals("own", copy.own);
    }

    @Test
    void shouldWriteSuperclassFieldsFromAnotherPackageFixedWidthInAFixedOrder() {
        final ForeignDerived d = new ForeignDerived(-5, "package-private", 7, new double[] {1, 2}, "own");
        // flags + class id + primitives (secret int 4, stamp long 8) + references, superclass first and by name:
        // packageNote (15 ASCII chars), weights (varint 3 + 16), then own (3 ASCII chars)
        final ForeignDerived copy = wire.roundTrip(1 + 1 + 4 + 8 + 15 + (1 + 16) + 3, d);
        assertEquals(-5, copy.secret());
        assertEquals("package-private", copy.packageNote());
        assertEquals("own", copy.own);
    }

    @Test
    void shouldGenerateAHiddenNestmateSerializerForEveryClassShape() {
        Wire.assertGenerated(
                Primitives.class,
                Boxes.class,
                Account.class,
                Base.class,
                Derived.class,
                Point.class,
                Segment.class,
                Samples.class,
                Empty.class,
                Instruction.class,
                Circle.class,
                FinalField.class,
                ObjectField.class,
                InterfaceField.class,
                BaseField.class,
                DoublesHolder.class,
                AllArrays.class,
                Grids.class,
                Inventory.class,
                Texts.class);
    }

    @Test
    void shouldGenerateASerializerForASubclassOfASuperclassInAnotherPackage() {
        Wire.assertGenerated(ForeignDerived.class);
    }

    @Test
    void shouldRoundTripRecords() {
        assertEquals(new Point(3, -4), wire.roundTrip(new Point(3, -4)));
        assertEquals(new Empty(), wire.roundTrip(new Empty()));
        final Segment s = new Segment(new Point(1, 2), null);
        assertEquals(s, wire.roundTrip(s));
    }

    @Test
    void shouldBuildRecordsThroughTheirCanonicalConstructorSoItsChecksHold() {
        assertEquals(new Positive(1), wire.roundTrip(new Positive(1)));
        final byte[] steady = wire.send(new Positive(1));
        assertEquals(1 + 1 + 4, steady.length, Wire.hex(steady));
        steady[2] = 0; // n = 0, which the constructor refuses
        final SerializationException e = assertThrows(SerializationException.class, () -> wire.receive(steady));
        boolean constructorRefused = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            constructorRefused |= t instanceof IllegalArgumentException;
        }
        assertTrue(constructorRefused, "the canonical constructor ran and refused: " + e);
        assertEquals(new Positive(2), wire.roundTrip(new Positive(2)));
    }

    @Test
    void shouldRoundTripRecordsWithArraysAndNestedRecords() {
        final Samples s = new Samples(
                "probe", new double[] {0.5, -1, Double.NaN}, new int[][] {{1, 2, 3}, {}, null, {4}}, new Point(7, 8));
        final Samples copy = wire.roundTrip(s);
        assertEquals("probe", copy.name());
        assertArrayEquals(s.values(), copy.values());
        assertTrue(Arrays.deepEquals(s.grid(), copy.grid()));
        assertEquals(new Point(7, 8), copy.origin());
        final Samples nulls = new Samples(null, null, null, null);
        assertGraphEquals(nulls, wire.roundTrip(nulls));
    }

    @Test
    void shouldRoundTripEnumsIncludingConstantsWithBodies() {
        assertSame(Color.BLUE, wire.roundTrip(Color.BLUE));
        assertSame(Op.TIMES, wire.roundTrip(Op.TIMES));
        assertSame(Op.PLUS, wire.roundTrip(Op.PLUS));
        final Instruction in = new Instruction(Op.TIMES, Color.RED, Op.PLUS);
        final Instruction copy = wire.roundTrip(in);
        assertEquals(in, copy);
        assertEquals(42, copy.op().apply(6, 7));
        final Instruction nulls = new Instruction(null, null, null);
        assertEquals(nulls, wire.roundTrip(nulls));
    }

    @Test
    void shouldRoundTripStrings() {
        final Texts t = new Texts();
        for (final String s : strings()) {
            t.a = s;
            t.b = s == null ? "" : s + s;
            t.c = s;
            assertGraphEquals(t, wire.roundTrip(t));
            assertEquals(s, wire.roundTrip(s));
        }
    }

    static List<String> strings() {
        return Arrays.asList(
                null,
                "",
                "a",
                "é",
                "hello",
                "ASCII with spaces, digits 0123456789 and punctuation!?",
                "x".repeat(63),
                "y".repeat(64),
                "z".repeat(10_000),
                "héllo wörld",
                "日本語のテキスト",
                "emoji 🎉🚀 and 𝄞",
                "\u0000nul\u0000",
                "\uD83D",
                "mixed ascii then ü then 🎉",
                "\u007F\u0080\u07FF\u0800\uFFFF");
    }

    @Test
    void shouldRoundTripNullMessages() {
        assertNull(wire.roundTrip(2, (Object) null));
    }

    @Test
    void shouldKeepTheRuntimeTypeOfNonFinalFields() {
        final BaseField bf = new BaseField(new Derived(1, "l", 2, 3.0));
        final BaseField copy = wire.roundTrip(bf);
        assertInstanceOf(Derived.class, copy.base());
        assertGraphEquals(bf, copy);
        final InterfaceField circle = wire.roundTrip(new InterfaceField(new Circle(2)));
        assertEquals(new Circle(2), circle.shape());
        final InterfaceField square = wire.roundTrip(new InterfaceField(new Square(3)));
        assertEquals(new Square(3), square.shape());
        for (final Object value : new Object[] {
            42, "text", new Point(1, 1), new double[] {1}, Color.GREEN, Op.PLUS, new ArrayList<>(List.of(1, 2)), null
        }) {
            assertGraphEquals(new ObjectField(value), wire.roundTrip(new ObjectField(value)));
        }
    }

    @Test
    void shouldNotNameTheClassOfAFinalTypedFieldOnTheWire() {
        final byte[] finalField = wire.send(new FinalField(new Point(1, 2)));
        assertTrue(Wire.containsAscii(finalField, FinalField.class.getName()), Wire.hex(finalField));
        assertFalse(
                Wire.containsAscii(finalField, Point.class.getName()),
                "a field of final type needs no class id, so the first message need not name Point: "
                        + Wire.hex(finalField));
        assertEquals(new FinalField(new Point(1, 2)), wire.receive(finalField));

        final byte[] objectField = wire.send(new ObjectField(new Point(1, 2)));
        assertTrue(
                Wire.containsAscii(objectField, Point.class.getName()),
                "a field of type Object carries the class of its value: " + Wire.hex(objectField));
        assertEquals(new ObjectField(new Point(1, 2)), wire.receive(objectField));
    }

    // --- Primitive arrays ---

    static Stream<Integer> arrayLengths() {
        return Stream.of(0, 1, 15, 16, 17, 100, 5_000, 20_000); // lengths of one, two and three varint bytes
    }

    @ParameterizedTest
    @MethodSource("arrayLengths")
    void shouldRoundTripPrimitiveArraysOfAllTypesAsFields(final int length) {
        final AllArrays a = AllArrays.ofLength(length);
        assertGraphEquals(a, wire.roundTrip(a));
    }

    @ParameterizedTest
    @MethodSource("arrayLengths")
    void shouldRoundTripPrimitiveArraysOfAllTypesAsMessages(final int length) {
        final AllArrays a = AllArrays.ofLength(length);
        for (final Object array : new Object[] {a.z, a.b, a.s, a.c, a.i, a.l, a.f, a.d}) {
            assertGraphEquals(array, wire.roundTrip(array));
        }
    }

    @Test
    void shouldRoundTripNullPrimitiveArrays() {
        final AllArrays nulls = new AllArrays();
        // flags + class id + eight null arrays, a varint 0 each
        assertGraphEquals(nulls, wire.roundTrip(1 + 1 + 8, nulls));
    }

    @Test
    void shouldWriteADoubleArrayAsItsLengthThenTheElements() {
        assertArrayEquals(new double[] {1, 2, 3}, wire.roundTrip(1 + 1 + 1 + 3 * 8, new double[] {1, 2, 3}));
        final double[] large = IntStream.range(0, 100).asDoubleStream().toArray();
        assertArrayEquals(large, wire.roundTrip(1 + 1 + 1 + 100 * 8, large));
        final double[] longer = new double[200]; // length + 1 = 201 needs a two-byte varint
        assertArrayEquals(longer, wire.roundTrip(1 + 1 + 2 + 200 * 8, longer));
        assertArrayEquals(new double[0], wire.roundTrip(1 + 1 + 1, new double[0]));
    }

    @Test
    void shouldWriteEveryPrimitiveArrayTypeAtItsElementWidth() {
        final int n = 20;
        final AllArrays a = AllArrays.ofLength(n);
        assertArrayEquals(a.z, wire.roundTrip(3 + n, a.z));
        assertArrayEquals(a.b, wire.roundTrip(3 + n, a.b));
        assertArrayEquals(a.s, wire.roundTrip(3 + 2 * n, a.s));
        assertArrayEquals(a.c, wire.roundTrip(3 + 2 * n, a.c));
        assertArrayEquals(a.i, wire.roundTrip(3 + 4 * n, a.i));
        assertArrayEquals(a.l, wire.roundTrip(3 + 8 * n, a.l));
        assertArrayEquals(a.f, wire.roundTrip(3 + 4 * n, a.f));
        assertArrayEquals(a.d, wire.roundTrip(3 + 8 * n, a.d));
    }

    @Test
    void shouldWriteAPrimitiveArrayFieldWithoutAClassId() {
        // flags + class id + varint (2 + 1) + two doubles
        final DoublesHolder h = wire.roundTrip(1 + 1 + 1 + 16, new DoublesHolder(new double[] {1, 2}));
        assertArrayEquals(new double[] {1, 2}, h.values());
        assertNull(wire.roundTrip(1 + 1 + 1, new DoublesHolder(null)).values());
    }

    // --- Multi-dimensional arrays ---

    @Test
    void shouldRoundTripMultiDimensionalArraysRaggedAndWithNullRows() {
        final Grids g = new Grids();
        g.doubles = new double[][] {
            {1, 2, 3}, null, {}, IntStream.range(0, 40).asDoubleStream().toArray()
        };
        g.ints = new int[][][] {{{1}, {2, 3}}, null, {null, {}}, {{4, 5, 6, 7}}};
        g.any = new long[][] {{1L}, null};
        assertGraphEquals(g, wire.roundTrip(g));
        assertGraphEquals(g.doubles, wire.roundTrip(g.doubles));
        assertGraphEquals(g.ints, wire.roundTrip(g.ints));
        final Grids empty = new Grids();
        assertGraphEquals(empty, wire.roundTrip(empty));
        assertGraphEquals(new double[0][], wire.roundTrip(new double[0][]));
    }

    @Test
    void shouldRoundTripArraysOfAllowedObjects() {
        final Point[] points = {new Point(1, 2), null, new Point(3, 4)};
        assertGraphEquals(points, wire.roundTrip(points));
        final Shape[] shapes = {new Circle(1), new Square(2), null};
        assertGraphEquals(shapes, wire.roundTrip(shapes));
    }

    // --- Collections ---

    @Test
    void shouldRoundTripStandardCollectionsAsMessages() {
        final ArrayList<Object> list = new ArrayList<>(Arrays.asList(1, "two", new Point(3, 4), null, 5.0));
        assertGraphEquals(list, wire.roundTrip(list));
        final LinkedList<String> linked = new LinkedList<>(List.of("a", "b", "c"));
        assertGraphEquals(linked, wire.roundTrip(linked));
        final HashMap<String, Object> map = new HashMap<>();
        map.put("point", new Point(1, 1));
        map.put("null", null);
        map.put("array", new int[] {1, 2});
        assertGraphEquals(map, wire.roundTrip(map));
        final ArrayDeque<Integer> deque = new ArrayDeque<>(List.of(3, 1, 2));
        assertGraphEquals(deque, wire.roundTrip(deque));
        final HashSet<String> set = new HashSet<>(List.of("x", "y", "z"));
        assertGraphEquals(set, wire.roundTrip(set));
        assertGraphEquals(new ArrayList<>(), wire.roundTrip(new ArrayList<>()));
        assertGraphEquals(new HashMap<>(), wire.roundTrip(new HashMap<>()));
    }

    @Test
    void shouldRoundTripCollectionsInFieldsOfInterfaceType() {
        final Map<String, Integer> counts = new HashMap<>(Map.of("a", 1, "b", 2));
        final Inventory inv = new Inventory(
                new ArrayList<>(List.of("n1", "n2")),
                counts,
                new HashSet<>(Set.of(Color.RED, Color.BLUE)),
                new ArrayDeque<>(List.of(new Point(0, 0))),
                new LinkedList<>(List.of(1.0, 2.0)));
        assertGraphEquals(inv, wire.roundTrip(inv));
        final Inventory nulls = new Inventory(null, null, null, null, null);
        assertGraphEquals(nulls, wire.roundTrip(nulls));
    }

    @Test
    void shouldRoundTripLargeCollections() {
        final ArrayList<Integer> list = new ArrayList<>();
        final HashMap<Integer, String> map = new HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            list.add(i);
            map.put(i, "v" + i);
        }
        assertGraphEquals(list, wire.roundTrip(list));
        assertGraphEquals(map, wire.roundTrip(map));
    }

    // --- Pinned lengths of representative messages ---

    @Test
    void shouldWriteARecordOfTwoIntsInTenBytes() {
        assertEquals(new Point(-1, Integer.MAX_VALUE), wire.roundTrip(1 + 1 + 4 + 4, new Point(-1, Integer.MAX_VALUE)));
    }

    @Test
    void shouldWriteNestedRecordsOfFinalTypeWithANotNullByteEach() {
        final Segment s = new Segment(new Point(1, 2), new Point(3, 4));
        // flags + class id + 2 * (not-null byte + two ints)
        assertEquals(s, wire.roundTrip(1 + 1 + 2 * (1 + 8), s));
        final Segment half = new Segment(new Point(1, 2), null);
        assertEquals(half, wire.roundTrip(1 + 1 + (1 + 8) + 1, half));
    }

    @Test
    void shouldWriteAnObjectFieldWithTheClassIdOfItsValue() {
        // flags + class id + Point's class id + two ints
        assertEquals(new ObjectField(new Point(5, 6)), wire.roundTrip(1 + 1 + 1 + 8, new ObjectField(new Point(5, 6))));
        // flags + class id + class id 0 for null
        assertEquals(new ObjectField(null), wire.roundTrip(1 + 1 + 1, new ObjectField(null)));
        // an interface-typed field too: flags + class id + Circle's class id + a double
        assertEquals(
                new InterfaceField(new Circle(2)), wire.roundTrip(1 + 1 + 1 + 8, new InterfaceField(new Circle(2))));
    }

    @Test
    void shouldWriteShortAsciiStringsOneBytePerChar() {
        assertEquals("hello", wire.roundTrip(1 + 1 + 5, "hello"));
    }

    @Test
    void shouldWriteAnEnumAsItsOrdinal() {
        assertSame(Color.GREEN, wire.roundTrip(1 + 1 + 1, Color.GREEN));
        assertSame(Op.TIMES, wire.roundTrip(1 + 1 + 1, Op.TIMES));
    }

    // --- Messages in a stream, typed decoding ---

    @Test
    void shouldDecodeMessagesAppendedToOneOutputInOrder() {
        final TroupeOutput out = wire.sender.encoder().newOutput();
        wire.sender.encoder().encode(new Point(1, 2), out);
        wire.sender.encoder().encode("between", out);
        wire.sender.encoder().encode(new Point(3, 4), out);
        final TroupeInput in = new TroupeInput(out.getBuffer(), 0, out.position());
        final Decoder decoder = wire.receiver.decoder();
        assertEquals(new Point(1, 2), decoder.decode(in, Point.class));
        assertEquals("between", decoder.decode(in, String.class));
        assertEquals(new Point(3, 4), decoder.decode(in, Point.class));
        assertEquals(0, in.remaining());
    }

    @Test
    void shouldDecodeAMessageAtAnOffsetInALargerBuffer() {
        final byte[] message = wire.send(new Point(9, 9));
        final byte[] framed = new byte[message.length + 10];
        System.arraycopy(message, 0, framed, 7, message.length);
        assertEquals(new Point(9, 9), wire.receiver.decoder().decode(new TroupeInput(framed, 7, message.length)));
    }

    @Test
    void shouldRefuseAMessageOfAnotherTypeThanExpected() {
        final byte[] message = wire.send(new Point(1, 2));
        final SerializationException e = assertThrows(
                SerializationException.class, () -> wire.receiver.decoder().decode(message, String.class));
        assertTrue(e.getMessage().contains(Point.class.getName()), e.getMessage());
    }

    @Test
    void shouldRefuseBytesLeftAfterTheMessage() {
        final byte[] message = wire.send(new Point(1, 2));
        final byte[] longer = Arrays.copyOf(message, message.length + 1);
        assertThrows(SerializationException.class, () -> wire.receiver.decoder().decode(longer, Point.class));
    }

    @Test
    void shouldRefuseAnEmptyMessage() {
        assertThrows(SerializationException.class, () -> wire.receiver.decoder().decode(new byte[0], Object.class));
    }

    @Test
    void shouldRoundTripAMessageOfSeveralMegabytes() {
        final double[] big = new double[1 << 20];
        Arrays.setAll(big, i -> i * 0.5);
        assertArrayEquals(big, wire.roundTrip(big));
    }

    @Test
    void shouldRefuseToReadAMessageLargerThanTheMaximum() {
        final Wire mismatched = new Wire(
                Wire.TEST_CONFIG,
                SerializationConfig.builder()
                        .allowPackage("org.troupe.serialization")
                        .maxMessageBytes(1024)
                        .build());
        final byte[] big = mismatched.send(new double[1000]);
        assertThrows(
                SerializationException.class,
                () -> mismatched.receive(big),
                "a " + big.length + "-byte message is over the receiver's maximum of 1024 bytes");
        assertEquals(new Point(1, 2), mismatched.roundTrip(new Point(1, 2)), "the session still works");
    }

    @Test
    void shouldRefuseToWriteAMessageLargerThanTheMaximumAndLeaveTheOutputAsItWas() {
        final Wire small = new Wire(SerializationConfig.builder()
                .allowPackage("org.troupe.serialization")
                .maxMessageBytes(1024)
                .build());
        final TroupeOutput out = small.sender.encoder().newOutput();
        small.sender.encoder().encode(new Point(1, 2), out);
        final int before = out.position();
        assertThrows(SerializationException.class, () -> small.sender.encoder().encode(new double[1000], out));
        assertEquals(before, out.position(), "a failed encode leaves the output where it was");
        small.sender.encoder().encode(new Point(3, 4), out);
        final TroupeInput in = new TroupeInput(out.getBuffer(), 0, out.position());
        assertEquals(new Point(1, 2), small.receiver.decoder().decode(in));
        assertEquals(new Point(3, 4), small.receiver.decoder().decode(in));
    }
}
