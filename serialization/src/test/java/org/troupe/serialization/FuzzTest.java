package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;
import static org.troupe.serialization.GraphAssert.assertGraphEquals;
import static org.troupe.serialization.GraphAssert.assertSameGraph;

import com.esotericsoftware.kryo.io.Output;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Corrupt input: thousands of deterministic random mutations of valid messages (bit flips, byte replacements,
 * truncations, insertions, duplicated and deleted ranges, varints patched to huge values). Every decode must either
 * return or throw a {@link SerializationException}: no other exception, no {@link Error}, no hang. Each mutated
 * message is decoded by a fresh receiver that has decoded the warm-up message (so it knows the class ids) and by
 * long-lived receivers that see every case, which must still decode the valid corpus afterwards.
 */
class FuzzTest {
    /** Mutated messages to decode; {@code bin/test --fast} asks for fewer (the same first ones, seeded alike). */
    private static final int CASES = Integer.getInteger("troupe.test.fuzzCases", 20_000);

    private static final long SEED = 0x7A0B_5EEDL;
    private static final int MAX_REPORTED = 15;

    private static final SerializationConfig CONFIG = SerializationConfig.builder()
            .allowPackage("org.troupe.serialization")
            .maxMessageBytes(1 << 20)
            .maxDepth(200)
            .build();

    // --- Message shapes ---

    record Point(int x, int y) {}

    record Segment(Point from, Point to) {}

    record Pair(Object left, Object right) {}

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
        MINUS {
            @Override
            int apply(final int a, final int b) {
                return a - b;
            }
        };

        abstract int apply(int a, int b);
    }

    static final class Primitives {
        byte b = -1;
        short s = 300;
        char c = 'λ';
        int i = -70_000;
        long l = Long.MIN_VALUE + 1;
        float f = 1.25f;
        double d = Math.PI;
        boolean z = true;
    }

    static final class Boxes {
        Integer i = 5;
        Long l;
        Double d = -0.5;
        Character c;
        Boolean z = Boolean.FALSE;
    }

    static final class Account {
        private final String owner;
        private final long balance;

        Account(final String owner, final long balance) {
            this.owner = owner;
            this.balance = balance;
        }
    }

    record Bag(
            Object any,
            String text,
            double[] values,
            int[][] grid,
            List<Object> list,
            Map<String, Object> map,
            Color color,
            Op op,
            ArraySlice<double[]> slice) {}

    static final class Link {
        int value;
        Link next;
    }

    static final class Vertex {
        String name;
        List<Vertex> edges = new ArrayList<>();
    }

    static final class Tree {
        int v;
        Tree left;
        Tree right;
    }

    /** A corpus message and whether it is sent with reference tracking. */
    record Sample(String name, Object message, boolean references) {}

    static List<Sample> corpus() {
        final List<Sample> s = new ArrayList<>();
        s.add(new Sample("point", new Point(3, -4), false));
        s.add(new Sample("segment", new Segment(new Point(1, 2), null), false));
        s.add(new Sample("primitives", new Primitives(), false));
        s.add(new Sample("boxes", new Boxes(), false));
        s.add(new Sample("account", new Account("Grace 🎉", 99), false));
        s.add(new Sample("nullName", new Account(null, 1), false));
        final HashMap<String, Object> map = new HashMap<>();
        map.put("n", 1);
        map.put("p", new Point(5, 5));
        map.put("null", null);
        s.add(new Sample(
                "bag",
                new Bag(
                        Op.MINUS,
                        "héllo wörld",
                        IntStream.range(0, 20).asDoubleStream().toArray(),
                        new int[][] {{1, 2}, null, {}, {3}},
                        new ArrayList<>(Arrays.asList(1, "s", new Point(0, 1), null, 2.5)),
                        map,
                        Color.GREEN,
                        Op.PLUS,
                        ArraySlice.of(new double[] {1, 2, 3, 4, 5}, 1, 3)),
                false));
        s.add(new Sample(
                "doubles", IntStream.range(0, 40).mapToDouble(i -> i * 0.5).toArray(), false));
        s.add(new Sample(
                "slice", ArraySlice.of(IntStream.range(0, 100).asDoubleStream().toArray(), 30, 30), false));
        s.add(new Sample("ints3d", new int[][][] {{{1}, {2, 3}}, null, {null, {}}}, false));
        s.add(new Sample("longs", new long[] {1, -1, Long.MAX_VALUE}, false));
        s.add(new Sample("linked", new LinkedList<>(List.of("a", "bb", "ccc")), false));
        s.add(new Sample("deque", new ArrayDeque<>(List.of(1, 2, 3)), false));
        s.add(new Sample("set", new HashSet<>(List.of("x", "y")), false));
        s.add(new Sample("treeMap", new TreeMap<>(Map.of("k1", 1, "k2", 2)), false));
        s.add(new Sample("linkedMap", new LinkedHashMap<>(Map.of("k", new double[] {1})), false));
        s.add(new Sample("chain", chain(50, false), false));
        s.add(new Sample("cyclicChain", chain(20, true), true));
        s.add(new Sample("graph", graph(), true));
        final Point shared = new Point(7, 7);
        s.add(new Sample("shared", new Pair(shared, new Pair(shared, "t")), true));
        s.add(new Sample("tree", tree(30), false));
        s.add(new Sample("text", "emoji 🎉 and ascii", false));
        s.add(new Sample("null", null, false));
        s.add(new Sample("enum", Color.BLUE, false));
        s.add(new Sample("enumBody", Op.MINUS, false));
        s.add(new Sample("integer", 123_456, false));
        s.add(new Sample(
                "nestedLists",
                new ArrayList<>(List.of(
                        new ArrayList<>(List.of(new ArrayList<>(List.of(1)), new ArrayList<>())),
                        new ArrayList<>(List.of("z")))),
                false));
        s.add(new Sample("immutables", new Pair(List.of(1, "two", List.of()), Map.of("k", Set.of(3))), false));
        final List<Point> sharedList = List.of(new Point(1, 1));
        s.add(new Sample("sharedImmutable", new Pair(sharedList, sharedList), true));
        return s;
    }

    private static Link chain(final int length, final boolean cyclic) {
        final Link head = new Link();
        Link tail = head;
        for (int i = 1; i < length; i++) {
            tail.next = new Link();
            tail = tail.next;
            tail.value = i;
        }
        if (cyclic) {
            tail.next = head;
        }
        return head;
    }

    private static Vertex graph() {
        final Vertex[] v = new Vertex[4];
        for (int i = 0; i < v.length; i++) {
            v[i] = new Vertex();
            v[i].name = "v" + i;
        }
        v[0].edges.addAll(List.of(v[1], v[2]));
        v[1].edges.add(v[3]);
        v[2].edges.addAll(List.of(v[3], v[0]));
        v[3].edges.add(v[3]);
        return v[0];
    }

    private static Tree tree(final int depth) {
        final Tree t = new Tree();
        t.v = depth;
        if (depth > 1) {
            t.left = tree(depth - 1);
            if (depth % 3 == 0) {
                t.right = new Tree();
            }
        }
        return t;
    }

    // --- The test ---

    private final List<String> failures = new ArrayList<>();
    private final Map<String, Integer> failureCounts = new TreeMap<>();
    private volatile String current = "setting up";
    private int refused;
    private boolean aborted;
    private int returned;

    @Test
    void shouldOnlyEverReturnOrThrowSerializationExceptionOnMutatedMessages() {
        final List<Sample> corpus = corpus();
        final CodecSession sender = new CodecSession(CONFIG);
        final ArrayList<Object> all = new ArrayList<>();
        corpus.forEach(sample -> all.add(sample.message()));
        final byte[] warmUp = encode(sender, all, true);
        final List<byte[]> messages = new ArrayList<>();
        for (final Sample sample : corpus) {
            messages.add(encode(sender, sample.message(), sample.references()));
        }

        // The corpus itself must be valid.
        final CodecSession control = warmReceiver(warmUp);
        for (int k = 0; k < corpus.size(); k++) {
            assertDecodes(control, corpus.get(k), messages.get(k));
        }

        final CodecSession reused = warmReceiver(warmUp);
        final CodecSession reusedInto = warmReceiver(warmUp);
        final double[] target = new double[64];

        assertTimeoutPreemptively(
                Duration.ofSeconds(120),
                () -> {
                    for (int c = 0; c < CASES && !aborted; c++) {
                        final SplittableRandom random = new SplittableRandom(SEED + c * 0x9E37_79B9_7F4A_7C15L);
                        final boolean mutateWarmUp = c % 50 == 0;
                        final int base = random.nextInt(corpus.size());
                        final byte[] original = mutateWarmUp ? warmUp : messages.get(base);
                        final StringBuilder how = new StringBuilder();
                        final byte[] mutated = mutate(original, random, how);
                        final String label = "case " + c + " ("
                                + (mutateWarmUp ? "warm-up" : corpus.get(base).name()) + ": " + how + ")";
                        current = label;

                        if (mutateWarmUp) {
                            check(
                                    label + " on a new session",
                                    mutated,
                                    () -> decode(new CodecSession(CONFIG), mutated));
                        } else {
                            check(
                                    label + " on a fresh warm session",
                                    mutated,
                                    () -> decode(warmReceiver(warmUp), mutated));
                        }
                        check(label + " on the reused session", mutated, () -> decode(reused, mutated));
                        if (c % 4 == 0) {
                            check(
                                    label + " decoded into an array",
                                    mutated,
                                    () -> reusedInto
                                            .decoder()
                                            .decodeInto(
                                                    new TroupeInput(mutated, 0, mutated.length),
                                                    ArraySlice.of(target, 0, 64)));
                        }
                    }
                },
                () -> "a decode did not finish; last started: " + current);

        current = "checking the reused session";
        for (int k = 0; k < corpus.size(); k++) {
            try {
                assertDecodes(reused, corpus.get(k), messages.get(k));
            } catch (AssertionError | RuntimeException e) {
                failures.add("after fuzzing, the reused session no longer decodes "
                        + corpus.get(k).name() + ": " + stackTrace(e));
            }
        }
        // The mutations must bite, and must not all be fatal either (a payload bit flip still decodes).
        if (!aborted && (refused < CASES / 10 || returned == 0)) {
            failures.add("the mutator looks broken: " + refused + " decodes refused, " + returned + " returned");
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " problems, by kind " + failureCounts + ". First ones:\n"
                    + String.join("\n\n", failures));
        }
    }

    private static byte[] encode(final CodecSession sender, final Object message, final boolean references) {
        final TroupeOutput out = sender.encoder().newOutput();
        sender.encoder().encode(message, out, references);
        return out.toBytes();
    }

    private static CodecSession warmReceiver(final byte[] warmUp) {
        final CodecSession session = new CodecSession(CONFIG);
        session.decoder().decode(warmUp, Object.class);
        return session;
    }

    private static Object decode(final CodecSession session, final byte[] message) {
        return session.decoder().decode(new TroupeInput(message, 0, message.length));
    }

    private static void assertDecodes(final CodecSession session, final Sample sample, final byte[] message) {
        final Object decoded = session.decoder().decode(message, Object.class);
        if (sample.references()) {
            assertSameGraph(sample.message(), decoded);
        } else {
            assertGraphEquals(sample.message(), decoded);
        }
    }

    private void check(final String label, final byte[] mutated, final Runnable decode) {
        try {
            decode.run();
            returned++;
        } catch (SerializationException expected) {
            refused++; // cleanly
        } catch (Throwable t) {
            failureCounts.merge(t.getClass().getName(), 1, Integer::sum);
            if (failures.size() < MAX_REPORTED) {
                failures.add(label + "\n  bytes: " + Wire.hex(mutated) + "\n  " + stackTrace(t));
            }
            if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
                // JUnit treats an OutOfMemoryError as unrecoverable and would abort the whole run: stop and report.
                aborted = true;
            }
        }
    }

    private static String stackTrace(final Throwable t) {
        final StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        final String s = w.toString();
        return s.length() > 3000 ? s.substring(0, 3000) + "..." : s;
    }

    // --- Mutations ---

    private static final int[] INTERESTING_BYTES = {0x00, 0x01, 0x02, 0x7F, 0x80, 0x81, 0xFE, 0xFF};
    private static final int[] HUGE_VALUES = {
        Integer.MAX_VALUE, Integer.MAX_VALUE - 1, 0x7FFF_FFF0, 1 << 30, 1 << 28, 0xFFFF_FFFF, 0x8000_0000, 1 << 20
    };

    static byte[] mutate(final byte[] original, final SplittableRandom r, final StringBuilder how) {
        byte[] m = original.clone();
        final int rounds = 1 + r.nextInt(3);
        for (int k = 0; k < rounds; k++) {
            if (m.length == 0) {
                m = new byte[] {(byte) r.nextInt(256)};
                how.append("from-empty ");
                continue;
            }
            final int pos = r.nextInt(m.length);
            switch (r.nextInt(9)) {
                case 0 -> {
                    final int bit = r.nextInt(8);
                    m[pos] ^= (byte) (1 << bit);
                    how.append("flip@").append(pos).append('.').append(bit).append(' ');
                }
                case 1 -> {
                    final int v =
                            r.nextBoolean() ? INTERESTING_BYTES[r.nextInt(INTERESTING_BYTES.length)] : r.nextInt(256);
                    m[pos] = (byte) v;
                    how.append("set@").append(pos).append('=').append(v).append(' ');
                }
                case 2 -> {
                    m = Arrays.copyOf(m, pos);
                    how.append("truncate@").append(pos).append(' ');
                }
                case 3 -> {
                    final byte[] ins = new byte[1 + r.nextInt(8)];
                    for (int i = 0; i < ins.length; i++) {
                        ins[i] = (byte) r.nextInt(256);
                    }
                    m = splice(m, pos, 0, ins);
                    how.append("insert@")
                            .append(pos)
                            .append('x')
                            .append(ins.length)
                            .append(' ');
                }
                case 4 -> {
                    final int len = 1 + r.nextInt(Math.min(32, m.length - pos));
                    final int at = r.nextInt(m.length + 1);
                    m = splice(m, at, 0, Arrays.copyOfRange(m, pos, pos + len));
                    how.append("dup[")
                            .append(pos)
                            .append('+')
                            .append(len)
                            .append("]@")
                            .append(at)
                            .append(' ');
                }
                case 5, 6 -> {
                    final int value = HUGE_VALUES[r.nextInt(HUGE_VALUES.length)];
                    final byte[] varint = varint(value, r.nextBoolean());
                    final boolean overwrite = r.nextBoolean();
                    m = splice(m, pos, overwrite ? Math.min(1 + r.nextInt(3), m.length - pos) : 0, varint);
                    how.append(overwrite ? "varint-over@" : "varint-ins@")
                            .append(pos)
                            .append('=')
                            .append(Integer.toUnsignedString(value))
                            .append(' ');
                }
                case 7 -> {
                    final int len = 1 + r.nextInt(Math.min(16, m.length - pos));
                    m = splice(m, pos, len, new byte[0]);
                    how.append("delete[").append(pos).append('+').append(len).append("] ");
                }
                default -> {
                    final int at = Math.min(r.nextInt(3), m.length - 1);
                    final int v = r.nextInt(256);
                    m[at] = (byte) v;
                    how.append("head@").append(at).append('=').append(v).append(' ');
                }
            }
        }
        return m;
    }

    private static byte[] splice(final byte[] m, final int at, final int removed, final byte[] inserted) {
        final byte[] out = new byte[m.length - removed + inserted.length];
        System.arraycopy(m, 0, out, 0, at);
        System.arraycopy(inserted, 0, out, at, inserted.length);
        System.arraycopy(m, at + removed, out, at + inserted.length, m.length - at - removed);
        return out;
    }

    /** Kryo's varint (7 bits a byte, low first), optionally in the flagged form Kryo's strings use. */
    private static byte[] varint(final int value, final boolean flagged) {
        final Output o = new Output(8);
        if (flagged) {
            o.writeVarIntFlag(true, value, true);
        } else {
            o.writeVarInt(value, true);
        }
        return o.toBytes();
    }
}
