package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Depth: a singly linked chain is walked iteratively, however long; any other graph deeper than
 * {@link SerializationConfig#maxDepth()} is refused with a {@link SerializationException}, on either side, and never
 * overflows the stack.
 */
class DeepGraphTest {
    private static final int CHAIN_LENGTH = 100_000;

    /** A chain: its last field is its own kind, and of final type. */
    static final class Node {
        int value;
        String tag;
        Node next;
    }

    /** A chain whose link field is of a non-final type, so each link carries a class id. */
    static class OpenNode {
        long value;
        OpenNode next;
    }

    /** An immutable chain: the link field is final. */
    static final class FrozenNode {
        private final int value;
        private final FrozenNode next;

        FrozenNode(final int value, final FrozenNode next) {
            this.value = value;
            this.next = next;
        }
    }

    static final class Tree {
        int depth;
        Tree left;
        Tree right;
    }

    record Wrapper(Object inner) {}

    /** A chain whose links may be of a subclass; the subclass inherits the link field. */
    static class Cell {
        int v;
        Cell next;
    }

    static final class MarkedCell extends Cell {
        String mark;

        MarkedCell() {}

        MarkedCell(final String mark) {
            this.mark = mark;
        }
    }

    /** A chain whose links also hold a chain ({@code branch}); {@code next} sorts last, so it is the link. */
    static final class Ladder {
        int v;
        Ladder branch;
        Ladder next;
    }

    private static Node chain(final int length) {
        final Node head = new Node();
        Node tail = head;
        for (int i = 1; i < length; i++) {
            tail.next = new Node();
            tail = tail.next;
            tail.value = i;
            tail.tag = (i % 1000 == 0) ? "k" + i : null;
        }
        return head;
    }

    private static void assertChain(final Node head, final int length) {
        Node n = head;
        for (int i = 0; i < length; i++) {
            assertEquals(i, n.value, "value of link " + i);
            assertEquals((i > 0 && i % 1000 == 0) ? "k" + i : null, n.tag, "tag of link " + i);
            if (i < length - 1) {
                n = n.next;
            }
        }
        assertNull(n.next, "the chain ends after " + length + " links");
    }

    /** A left-deep tree: every node has a leaf on its right, so it is not a chain. */
    private static Tree caterpillar(final int depth) {
        final Tree root = new Tree();
        Tree t = root;
        for (int i = 1; i < depth; i++) {
            t.right = new Tree();
            t.right.depth = -i;
            t.left = new Tree();
            t.left.depth = i;
            t = t.left;
        }
        return root;
    }

    /** A sender allowed graphs of a million levels, to a receiver of the default settings. */
    private static Wire fromADeepSender() {
        return new Wire(
                SerializationConfig.builder()
                        .allowPackage("org.troupe.serialization")
                        .maxDepth(1_000_000)
                        .build(),
                Wire.TEST_CONFIG);
    }

    private static Wire wire(final int maxDepth) {
        return new Wire(SerializationConfig.builder()
                .allowPackage("org.troupe.serialization")
                .maxDepth(maxDepth)
                .build());
    }

    @ParameterizedTest(name = "references {0}")
    @ValueSource(booleans = {false, true})
    void shouldRoundTripAChainOfAHundredThousandLinks(final boolean references) {
        final Wire wire = wire(SerializationConfig.MAX_DEPTH_DEFAULT);
        final Node head = chain(CHAIN_LENGTH);
        assertChain(wire.roundTrip(head, references), CHAIN_LENGTH);
        assertChain(wire.roundTrip(head, references), CHAIN_LENGTH);
    }

    @ParameterizedTest(name = "references {0}")
    @ValueSource(booleans = {false, true})
    void shouldRoundTripAChainWithNonFinalLinksOfAHundredThousandLinks(final boolean references) {
        final Wire wire = wire(SerializationConfig.MAX_DEPTH_DEFAULT);
        final OpenNode head = new OpenNode();
        OpenNode tail = head;
        for (int i = 1; i < CHAIN_LENGTH; i++) {
            tail.next = new OpenNode();
            tail = tail.next;
            tail.value = i * 3L;
        }
        OpenNode n = wire.roundTrip(head, references);
        for (int i = 0; i < CHAIN_LENGTH - 1; i++) {
            assertEquals(i * 3L, n.value);
            n = n.next;
        }
        assertNull(n.next);
    }

    @ParameterizedTest(name = "references {0}")
    @ValueSource(booleans = {false, true})
    void shouldRoundTripAnImmutableChainOfAHundredThousandLinks(final boolean references) {
        final Wire wire = wire(SerializationConfig.MAX_DEPTH_DEFAULT);
        FrozenNode head = null;
        for (int i = CHAIN_LENGTH - 1; i >= 0; i--) {
            head = new FrozenNode(i, head);
        }
        FrozenNode n = wire.roundTrip(head, references);
        for (int i = 0; i < CHAIN_LENGTH - 1; i++) {
            assertEquals(i, n.value);
            n = n.next;
        }
        assertNull(n.next);
    }

    @Test
    void shouldRoundTripAChainInsideOtherObjects() {
        final Wire wire = wire(100);
        final ArrayList<Object> list = new ArrayList<>(List.of(new Wrapper(chain(CHAIN_LENGTH)), "after"));
        final List<?> copy = wire.roundTrip(list);
        assertChain((Node) ((Wrapper) copy.get(0)).inner(), CHAIN_LENGTH);
        assertEquals("after", copy.get(1));
    }

    @Test
    void shouldRoundTripALongLinkedList() {
        final LinkedList<Integer> list = new LinkedList<>();
        for (int i = 0; i < CHAIN_LENGTH; i++) {
            list.add(i);
        }
        assertEquals(list, Wire.permissive().roundTrip(list));
    }

    @Test
    void shouldRoundTripATreeWithinTheDepthLimit() {
        final Wire wire = wire(10_000);
        final Tree root = caterpillar(1_000);
        Tree t = wire.roundTrip(root);
        for (int i = 1; i < 1_000; i++) {
            assertEquals(-i, t.right.depth);
            t = t.left;
            assertEquals(i, t.depth);
        }
        assertNull(t.left);
    }

    @Test
    void shouldRefuseToEncodeATreeDeeperThanTheLimit() {
        final Wire wire = wire(100);
        final SerializationException e = assertThrows(SerializationException.class, () -> wire.send(caterpillar(200)));
        assertTrue(mentionsDepth(e), "the error says the graph is too deep: " + e);
        assertEquals(42, wire.roundTrip(new Wrapper(42)).inner(), "the session still works");
    }

    /**
     * The default limit must stop a deep graph before the stack does: a {@link StackOverflowError} caught and
     * wrapped is not a bound (it can strike anywhere, such as in a class initializer, and depends on the JIT).
     */
    @Test
    void shouldRefuseToEncodeATreeDeeperThanTheDefaultLimitBeforeTheStackOverflows() {
        final Wire wire = wire(SerializationConfig.MAX_DEPTH_DEFAULT);
        final Tree deep = caterpillar(SerializationConfig.MAX_DEPTH_DEFAULT * 3);
        final SerializationException e = assertThrows(SerializationException.class, () -> wire.send(deep));
        assertNoStackOverflow(e);
        assertTrue(mentionsDepth(e), "the error says the graph is too deep: " + e);
    }

    @Test
    void shouldRoundTripATreeJustWithinTheDefaultLimit() {
        final Wire wire = wire(SerializationConfig.MAX_DEPTH_DEFAULT);
        final int depth = SerializationConfig.MAX_DEPTH_DEFAULT - 10;
        Tree t = wire.roundTrip(caterpillar(depth));
        for (int i = 1; i < depth; i++) {
            t = t.left;
        }
        assertEquals(depth - 1, t.depth);
    }

    @Test
    void shouldRoundTripAChainMixingSubclasses() {
        final Wire wire = Wire.permissive();
        final Cell head = new Cell();
        Cell tail = head;
        for (int i = 1; i < CHAIN_LENGTH; i++) {
            final Cell next = i % 3 == 0 ? new MarkedCell("m" + i) : new Cell();
            next.v = i;
            tail.next = next;
            tail = next;
        }
        for (final boolean references : new boolean[] {false, true}) {
            Cell c = wire.roundTrip(head, references);
            for (int i = 0; i < CHAIN_LENGTH; i++) {
                assertEquals(i, c.v);
                if (i > 0 && i % 3 == 0) {
                    assertEquals("m" + i, ((MarkedCell) c).mark);
                } else {
                    assertEquals(Cell.class, c.getClass());
                }
                c = c.next;
            }
            assertNull(c);
        }
    }

    @Test
    void shouldRoundTripAChainWhoseLinksHoldChainsOfTheirOwn() {
        final int length = 20_000;
        final int branchLength = 5;
        final Wire wire = Wire.permissive();
        final Ladder head = new Ladder();
        Ladder l = head;
        for (int i = 0; i < length; i++) {
            l.v = i;
            l.branch = new Ladder();
            Ladder b = l.branch;
            for (int k = 1; k < branchLength; k++) {
                b.v = -k;
                b.next = new Ladder();
                b = b.next;
            }
            if (i < length - 1) {
                l.next = new Ladder();
                l = l.next;
            }
        }
        for (final boolean references : new boolean[] {false, true}) {
            Ladder c = wire.roundTrip(head, references);
            for (int i = 0; i < length; i++) {
                assertEquals(i, c.v);
                Ladder b = c.branch;
                for (int k = 1; k < branchLength; k++) {
                    assertEquals(-k, b.v);
                    b = b.next;
                }
                assertNull(b.next);
                assertNull(b.branch);
                c = c.next;
            }
            assertNull(c);
        }
    }

    /** A non-final field: the object in it is written with its class, through the fast path. */
    static final class Box {
        Object content;
    }

    @Test
    void shouldCountObjectsAndCollectionsTogetherAgainstTheLimit() {
        Object nested = null;
        for (int i = 0; i < 30; i++) { // 30 boxes and 30 lists: within 40 each, but 60 in all
            final Box box = new Box();
            box.content = nested;
            nested = new ArrayList<>(List.of(box));
        }
        final Object message = nested;
        final SerializationException e = assertThrows(SerializationException.class, () -> wire(40).send(message));
        assertTrue(mentionsDepth(e), "the error says the graph is too deep: " + e);
        assertEquals(ArrayList.class, wire(100).roundTrip(message).getClass());
    }

    @Test
    void shouldRefuseToEncodeNestedCollectionsDeeperThanTheLimit() {
        final Wire wire = wire(100);
        ArrayList<Object> nested = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            final ArrayList<Object> outer = new ArrayList<>();
            outer.add(nested);
            nested = outer;
        }
        final ArrayList<Object> message = nested;
        final SerializationException e = assertThrows(SerializationException.class, () -> wire.send(message));
        assertTrue(mentionsDepth(e), "the error says the graph is too deep: " + e);
    }

    @Test
    void shouldRefuseToDecodeATreeDeeperThanTheLimit() throws Exception {
        final Wire wire = new Wire(
                SerializationConfig.builder()
                        .allowPackage("org.troupe.serialization")
                        .maxDepth(1_000_000)
                        .build(),
                SerializationConfig.builder()
                        .allowPackage("org.troupe.serialization")
                        .maxDepth(100)
                        .build());
        final byte[] tooDeep = onBigStack(() -> wire.send(caterpillar(200)));
        final SerializationException e = assertThrows(SerializationException.class, () -> wire.receive(tooDeep));
        assertTrue(mentionsDepth(e), "the error says the graph is too deep: " + e);
        assertEquals(new Wrapper(7), wire.roundTrip(new Wrapper(7)), "the session still works");
    }

    @Test
    void shouldRefuseToDecodeAGraphFarDeeperThanTheDefaultLimitBeforeTheStackOverflows() throws Exception {
        final Wire wire = fromADeepSender();
        final byte[] tooDeep = onBigStack(() -> {
            ArrayList<Object> nested = new ArrayList<>();
            for (int i = 0; i < 50_000; i++) {
                final ArrayList<Object> outer = new ArrayList<>();
                outer.add(new Wrapper(nested));
                nested = outer;
            }
            return wire.send(nested);
        });
        final Throwable thrown = catchThrowable(() -> wire.receive(tooDeep));
        assertInstanceOf(SerializationException.class, thrown);
        assertNoStackOverflow(thrown);
        assertTrue(mentionsDepth(thrown), "the error says the graph is too deep: " + thrown);
        assertEquals(new Wrapper(7), wire.roundTrip(new Wrapper(7)), "the session still works");
    }

    /**
     * On a thread whose stack holds fewer levels than the limit allows (256 KiB, cold: a few hundred), the limit
     * still decides, on both sides: a graph within it travels, a graph beyond it is refused naming the setting.
     */
    @Test
    void theDepthLimitNotTheThreadsStackDecidesOnASmallStack() throws Exception {
        final Wire wire = fromADeepSender();
        final int within = SerializationConfig.MAX_DEPTH_DEFAULT - 10;
        final byte[] deep = onBigStack(() -> wire.send(caterpillar(within)));
        Tree t = (Tree) onSmallStack(() -> wire.receive(deep));
        for (int i = 1; i < within; i++) {
            t = t.left;
        }
        assertEquals(within - 1, t.depth, "a graph within the limit is read whole");
        final byte[] tooDeep = onBigStack(() -> wire.send(caterpillar(SerializationConfig.MAX_DEPTH_DEFAULT * 3)));
        final Throwable refused = catchThrowable(() -> onSmallStack(() -> wire.receive(tooDeep)));
        assertInstanceOf(SerializationException.class, refused);
        assertTrue(
                refused.getMessage().contains(SerializationConfig.MAX_DEPTH_PROP_NAME + " = 2000")
                        && !refused.getMessage().contains("stack"),
                refused.getMessage());
        assertEquals(new Wrapper(7), wire.roundTrip(new Wrapper(7)), "the session still works");

        final Wire limited = wire(SerializationConfig.MAX_DEPTH_DEFAULT);
        final Tree sent = onSmallStack(() -> limited.roundTrip(caterpillar(within)));
        assertEquals(-1, sent.right.depth, "written and read on the small stack");
        final Throwable tooDeepToSend = catchThrowable(
                () -> onSmallStack(() -> limited.send(caterpillar(SerializationConfig.MAX_DEPTH_DEFAULT * 3))));
        assertInstanceOf(SerializationException.class, tooDeepToSend);
        assertTrue(
                tooDeepToSend.getMessage().contains(SerializationConfig.MAX_DEPTH_PROP_NAME + " = 2000")
                        && !tooDeepToSend.getMessage().contains("stack"),
                tooDeepToSend.getMessage());
    }

    @Test
    void shouldRefuseACycleOfAChainWithoutReferences() {
        final Wire wire = new Wire(SerializationConfig.builder()
                .allowPackage("org.troupe.serialization")
                .maxMessageBytes(1 << 20)
                .build());
        final Node head = chain(10);
        Node tail = head;
        while (tail.next != null) {
            tail = tail.next;
        }
        tail.next = head;
        assertThrows(SerializationException.class, () -> wire.send(head, false));
        final Node copy = wire.roundTrip(head, true);
        Node n = copy;
        for (int i = 0; i < 10; i++) {
            n = n.next;
        }
        assertSame(copy, n);
    }

    // --- Helpers ---

    private static boolean mentionsDepth(final Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null
                    && t.getMessage().toLowerCase(Locale.ROOT).contains("depth")) {
                return true;
            }
        }
        return false;
    }

    private static void assertNoStackOverflow(final Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StackOverflowError) {
                throw new AssertionError(
                        "the depth limit (" + SerializationConfig.MAX_DEPTH_DEFAULT + ") did not stop "
                                + "the graph before the stack overflowed: " + e.getMessage(),
                        e);
            }
        }
    }

    private static Throwable catchThrowable(final Callable<?> r) {
        try {
            r.call();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /** Runs on a thread with a 256 KiB stack, as a small thread of an application's may have. */
    private static <T> T onSmallStack(final Callable<T> task) throws Exception {
        return onStack(task, 256 << 10);
    }

    /** Runs on a thread with a 1 GiB stack, so a sender with a huge depth limit can write a deep message. */
    private static <T> T onBigStack(final Callable<T> task) throws Exception {
        return onStack(task, 1L << 30);
    }

    private static <T> T onStack(final Callable<T> task, final long stackBytes) throws Exception {
        final AtomicReference<T> result = new AtomicReference<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread t = new Thread(
                null,
                () -> {
                    try {
                        result.set(task.call());
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                },
                "sized-stack",
                stackBytes);
        t.start();
        t.join();
        if (failure.get() instanceof RuntimeException e) {
            throw e;
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        return result.get();
    }
}
