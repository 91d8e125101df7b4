package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.troupe.serialization.GraphAssert.assertGraphEquals;
import static org.troupe.serialization.GraphAssert.assertSameGraph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Shared and cyclic references: kept when the message asks for them ({@code encode(message, out, true)}), for the
 * configured classes in every message ({@code referencesFor}), or for every message by configuration; otherwise a
 * shared object arrives as copies.
 */
class ReferencesTest {
    static final class Vertex {
        String name;
        List<Vertex> edges = new ArrayList<>();

        Vertex() {}

        Vertex(final String name) {
            this.name = name;
        }
    }

    /** Tracked in every message by {@link #PER_CLASS}. */
    static final class Shared {
        int value;
        Shared partner;
        Object payload;

        Shared() {}

        Shared(final int value) {
            this.value = value;
        }
    }

    static final class Plain {
        int value;

        Plain() {}

        Plain(final int value) {
            this.value = value;
        }
    }

    record Pair(Object left, Object right) {}

    record Point(int x, int y) {}

    /** A chain class (its last field is its own kind), walked iteratively. */
    static final class Link {
        int value;
        Link next;
    }

    private static final SerializationConfig PER_CLASS = SerializationConfig.builder()
            .allowPackage("org.troupe.serialization")
            .referencesFor(Shared.class)
            .build();

    /** Bits of a message's flags byte. */
    private static final int TRACK_ALL = 1;

    private static final int KRYO_REFERENCES = 2;
    private static final int DEFINITIONS = 4;

    private final Wire wire = Wire.permissive();

    @Test
    void shouldTrackTheClassesTheSenderConfiguredWhateverTheReceiverConfigured() {
        final Wire apart = new Wire(PER_CLASS, Wire.TEST_CONFIG);
        final Shared a = new Shared(1);
        a.partner = new Shared(2);
        a.partner.partner = a;
        final Shared copy = apart.roundTrip(a);
        assertSame(copy, copy.partner.partner);
        final Wire reverse = new Wire(Wire.TEST_CONFIG, PER_CLASS);
        final Shared plain = new Shared(3);
        plain.payload = new Plain(4);
        assertEquals(4, ((Plain) reverse.roundTrip(plain).payload).value);
        assertEquals(5, reverse.roundTrip(new Shared(5)).value, "and again, once the classes are known");
    }

    @Test
    void shouldKeepASharedImmutableCollectionShared() {
        final List<Point> points = List.of(new Point(1, 2), new Point(3, 4));
        final Map<String, Point> byName = Map.of("a", points.get(0));
        final Pair copy = wire.roundTrip(new Pair(new Pair(points, byName), new Pair(points, byName)), true);
        final Pair left = (Pair) copy.left();
        final Pair right = (Pair) copy.right();
        assertSame(left.left(), right.left(), "the list is read once");
        assertSame(left.right(), right.right(), "the map is read once");
        assertEquals(points, left.left());
        assertSame(((List<?>) left.left()).get(0), ((Map<?, ?>) left.right()).get("a"));
        assertThrows(UnsupportedOperationException.class, () -> ((List<?>) left.left()).clear(), "still immutable");
    }

    @Test
    void shouldRoundTripACyclicGraphWhenTheMessageTracksReferences() {
        final Vertex a = new Vertex("a");
        final Vertex b = new Vertex("b");
        final Vertex c = new Vertex("c");
        a.edges.add(b);
        b.edges.add(c);
        c.edges.add(a);
        a.edges.add(a);
        final Vertex copy = wire.roundTrip(a, true);
        assertSameGraph(a, copy);
        assertSame(copy, copy.edges.get(0).edges.get(0).edges.get(0));
        assertSame(copy, copy.edges.get(1));
    }

    @Test
    void shouldPreserveSharedReferencesWhenTracked() {
        final Point p = new Point(1, 2);
        final double[] array = {1, 2, 3};
        final Pair copy = wire.roundTrip(new Pair(new Pair(p, array), new Pair(p, array)), true);
        assertSame(((Pair) copy.left()).left(), ((Pair) copy.right()).left());
        assertSame(((Pair) copy.left()).right(), ((Pair) copy.right()).right());
        assertArrayEquals(array, (double[]) ((Pair) copy.left()).right());
        final ArrayList<Object> list = new ArrayList<>(List.of(p, p, p));
        final List<?> listCopy = wire.roundTrip(list, true);
        assertSame(listCopy.get(0), listCopy.get(2));
    }

    /**
     * The objects one message tracked are forgotten before the next, whether there were few (forgotten one by one)
     * or many (the table cleared): the next message writes an object it sends again whole, not as a reference into
     * the last message, which the reader has forgotten too.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 15, 16, 17, 300})
    void shouldForgetEveryTrackedObjectBetweenMessages(final int objects) {
        final List<Vertex> first = new ArrayList<>();
        for (int i = 0; i < objects; i++) {
            first.add(new Vertex("v" + i));
        }
        final Vertex again = first.get(objects - 1);
        for (int round = 0; round < 3; round++) {
            final List<?> copy = wire.roundTrip(new ArrayList<>(List.of(first, List.of(again, again))), true);
            final Vertex sharedCopy = (Vertex) ((List<?>) copy.get(1)).get(0);
            assertEquals(again.name, sharedCopy.name);
            assertSame(((List<?>) copy.get(0)).get(objects - 1), sharedCopy, "shared within the message");
            final Vertex alone = wire.roundTrip(again, true);
            assertEquals(again.name, alone.name, "sent whole in the next message");
            assertNotSame(sharedCopy, alone);
        }
    }

    @Test
    void shouldCopySharedObjectsWhenReferencesAreOff() {
        final Point p = new Point(1, 2);
        final Pair copy = wire.roundTrip(new Pair(p, p), false);
        assertEquals(p, copy.left());
        assertEquals(p, copy.right());
        assertNotSame(copy.left(), copy.right());
    }

    @Test
    void shouldMarkTheMessageThatTracksReferences() {
        wire.send(new Point(1, 2), true); // defines Point
        assertEquals(TRACK_ALL | KRYO_REFERENCES, wire.send(new Point(1, 2), true)[0]);
        assertEquals(0, wire.send(new Point(1, 2), false)[0]);
        final Wire byConfig = new Wire(SerializationConfig.builder()
                .allowPackage("org.troupe.serialization")
                .references(true)
                .build());
        assertEquals(TRACK_ALL | KRYO_REFERENCES | DEFINITIONS, byConfig.send(new Point(1, 2))[0]);
    }

    @Test
    void shouldSpendOneByteMoreOnATrackedObject() {
        wire.receive(wire.send(new Point(1, 2)));
        // flags + class id + reference marker + two ints
        assertEquals(1 + 1 + 1 + 8, wire.send(new Point(1, 2), true).length);
        assertEquals(1 + 1 + 8, wire.send(new Point(1, 2), false).length);
    }

    @Test
    void shouldWriteASharedObjectOnceWhenTracked() {
        final int[] big = new int[1000];
        final Pair shared = new Pair(big, big);
        wire.send(shared, false); // the class names cross
        final int tracked = wire.send(shared, true).length;
        final int copied = wire.send(shared, false).length;
        // Copied: flags, Pair's id, then twice (int[]'s id, varint 1001 in two bytes, 4000 bytes).
        assertEquals(1 + 1 + 2 * (1 + 2 + 4000), copied);
        // Tracked: a reference marker for the Pair and the array, and the second occurrence is a class id and a
        // back-reference only.
        assertEquals(1 + 1 + 1 + (1 + 1 + 2 + 4000) + (1 + 1), tracked, "copied=" + copied + " tracked=" + tracked);
    }

    @Test
    void shouldTrackReferencesForEveryMessageWhenConfigured() {
        final Wire byConfig = new Wire(SerializationConfig.builder()
                .allowPackage("org.troupe.serialization")
                .references(true)
                .build());
        final Vertex a = new Vertex("a");
        a.edges.add(a);
        final Vertex copy = byConfig.roundTrip(a);
        assertSame(copy, copy.edges.get(0));
        final Point p = new Point(1, 1);
        final Pair pair = byConfig.roundTrip(new Pair(p, p));
        assertSame(pair.left(), pair.right());
        final Pair untracked = byConfig.roundTrip(new Pair(p, p), false);
        assertNotSame(untracked.left(), untracked.right(), "the sender may turn tracking off per message");
    }

    @Test
    void shouldTrackReferencesOfConfiguredClassesOnly() {
        final Wire perClass = new Wire(PER_CLASS);
        final Shared s = new Shared(7);
        final Plain p = new Plain(8);
        final Pair copy = perClass.roundTrip(new Pair(new Pair(s, p), new Pair(s, p)));
        assertSame(((Pair) copy.left()).left(), ((Pair) copy.right()).left(), "Shared is tracked");
        assertNotSame(((Pair) copy.left()).right(), ((Pair) copy.right()).right(), "Plain is not");
        assertEquals(8, ((Plain) ((Pair) copy.right()).right()).value);
    }

    @Test
    void shouldRoundTripCyclesThroughAConfiguredClassWithoutPerMessageTracking() {
        final Wire perClass = new Wire(PER_CLASS);
        final Shared a = new Shared(1);
        final Shared b = new Shared(2);
        a.partner = b;
        b.partner = a;
        a.payload = new HashMap<>(Map.of("back", a));
        final Shared copy = perClass.roundTrip(a, false);
        assertEquals(KRYO_REFERENCES, perClass.send(a, false)[0], "the message tracks the configured classes only");
        assertSame(copy, copy.partner.partner);
        assertSame(copy, ((Map<?, ?>) copy.payload).get("back"));
        assertEquals(2, copy.partner.value);
    }

    @Test
    void shouldRoundTripACyclicChainWhenTracked() {
        final Link head = new Link();
        Link tail = head;
        for (int i = 1; i < 1_000; i++) {
            tail.next = new Link();
            tail = tail.next;
            tail.value = i;
        }
        tail.next = head;
        final Link copy = wire.roundTrip(head, true);
        Link l = copy;
        for (int i = 0; i < 1_000; i++) {
            assertEquals(i, l.value);
            l = l.next;
        }
        assertSame(copy, l, "the last link points back at the head");
    }

    @Test
    void shouldRoundTripASelfReferenceAsMessage() {
        final Link self = new Link();
        self.value = 5;
        self.next = self;
        final Link copy = wire.roundTrip(self, true);
        assertSame(copy, copy.next);
        final ArrayList<Object> list = new ArrayList<>();
        list.add(list);
        list.add("x");
        final List<?> listCopy = wire.roundTrip(list, true);
        assertSame(listCopy, listCopy.get(0));
        assertEquals("x", listCopy.get(1));
    }

    @Test
    void shouldRefuseACycleWithoutReferencesInsteadOfRecursingForever() {
        final Wire bounded = new Wire(SerializationConfig.builder()
                .allowPackage("org.troupe.serialization")
                .maxMessageBytes(1 << 20)
                .build());
        final Vertex a = new Vertex("a");
        a.edges.add(a);
        assertThrows(SerializationException.class, () -> bounded.send(a, false));
        final Link self = new Link();
        self.next = self;
        assertThrows(SerializationException.class, () -> bounded.send(self, false));
        assertEquals(new Point(1, 2), bounded.roundTrip(new Point(1, 2)), "the session still works");
    }

    @Test
    void shouldDecodeATrackedMessageOnAReceiverConfiguredWithoutReferences() {
        final Wire mixed = new Wire(
                SerializationConfig.builder()
                        .allowPackage("org.troupe.serialization")
                        .references(true)
                        .build(),
                Wire.TEST_CONFIG);
        final Point p = new Point(3, 3);
        final Pair copy = mixed.roundTrip(new Pair(p, p));
        assertSame(copy.left(), copy.right());
        assertGraphEquals(new Pair(p, p), copy);
    }

    @Test
    void shouldNotLeakReferencesFromOneMessageIntoTheNext() {
        final Point p = new Point(4, 4);
        final Pair first = wire.roundTrip(new Pair(p, p), true);
        final Pair second = wire.roundTrip(new Pair(p, p), true);
        assertSame(first.left(), first.right());
        assertSame(second.left(), second.right());
        assertNotSame(first.left(), second.left(), "each message is a graph of its own");
        final byte[] a = wire.send(new Pair(p, p), true);
        final byte[] b = wire.send(new Pair(p, p), true);
        assertArrayEquals(a, b, "the sender forgets the objects of the previous message too");
    }
}
