package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.troupe.serialization.GraphAssert.assertGraphEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The per-connection class table: a class's name crosses once per session direction, in the first message that
 * needs it; later messages carry only its id; sessions are independent; failures do not corrupt the table.
 */
class ClassTableTest {
    record Point(int x, int y) {}

    record Label(String text) {}

    record Pair(Object left, Object right) {}

    record Reading(long at, double value) {}

    record Batch(List<Reading> readings, Map<String, Object> meta) {}

    /** Only ever sent by the tests that check a failed message does not spoil the table. */
    record Fresh(int n) {}

    record Forbidden(int n) {}

    private static final SerializationConfig STRICT = SerializationConfig.builder()
            .allowClass(Point.class, Label.class, Pair.class, Reading.class, Batch.class, Fresh.class)
            .build();

    private static final SerializationConfig PERMISSIVE = SerializationConfig.builder()
            .allowClass(Point.class, Label.class, Pair.class, Reading.class, Batch.class, Fresh.class, Forbidden.class)
            .build();

    @Test
    void shouldNameAClassOnlyInTheFirstMessageThatContainsIt() {
        final Wire wire = Wire.permissive();
        final byte[] first = wire.send(new Point(1, 2));
        final byte[] second = wire.send(new Point(1, 2));
        assertTrue(Wire.containsAscii(first, Point.class.getName()), Wire.hex(first));
        assertFalse(Wire.containsAscii(second, Point.class.getName()), Wire.hex(second));
        assertTrue(second.length < first.length, second.length + " < " + first.length);
        assertEquals(new Point(1, 2), wire.receive(first));
        assertEquals(new Point(1, 2), wire.receive(second));
    }

    @Test
    void shouldSendAnIdenticalSecondMessageInFewerBytes() {
        final Wire wire = Wire.permissive();
        final Batch batch = new Batch(
                new ArrayList<>(List.of(new Reading(1, 2.5), new Reading(2, 3.5))),
                new HashMap<>(Map.of("label", new Label("l"), "where", new Point(0, 0))));
        final byte[] first = wire.send(batch);
        final byte[] second = wire.send(batch);
        final byte[] third = wire.send(batch);
        assertTrue(second.length < first.length, second.length + " < " + first.length);
        assertEquals(second.length, third.length, "steady state");
        assertArrayEquals(second, third);
        for (final Class<?> c : List.of(Batch.class, Reading.class, Label.class, Point.class)) {
            assertFalse(Wire.containsAscii(second, c.getName()), c.getName() + " in " + Wire.hex(second));
        }
        assertGraphEquals(batch, wire.receive(first));
        assertGraphEquals(batch, wire.receive(second));
        assertGraphEquals(batch, wire.receive(third));
    }

    @Test
    void shouldNameAClassAgainOnAnotherSession() {
        final Wire one = Wire.permissive();
        final Wire two = Wire.permissive();
        final byte[] oneFirst = one.send(new Point(1, 2));
        final byte[] oneSecond = one.send(new Point(1, 2));
        final byte[] twoFirst = two.send(new Point(1, 2));
        assertArrayEquals(oneFirst, twoFirst, "a new session starts with an empty table");
        assertTrue(oneSecond.length < twoFirst.length);
        assertEquals(new Point(1, 2), two.receive(twoFirst));
        assertEquals(new Point(1, 2), one.receive(oneFirst));
        assertEquals(new Point(1, 2), one.receive(oneSecond));
    }

    @Test
    void shouldKeepIndependentSessionsApartWhenInterleaved() {
        final Wire one = Wire.permissive();
        final Wire two = Wire.permissive();
        // Different first classes, so the same id means different classes on the two connections.
        final byte[] a1 = one.send(new Point(1, 1));
        final byte[] b1 = two.send(new Label("b"));
        final byte[] a2 = one.send(new Label("a"));
        final byte[] b2 = two.send(new Point(2, 2));
        final byte[] a3 = one.send(new Pair(new Point(3, 3), new Label("a3")));
        final byte[] b3 = two.send(new Pair(new Label("b3"), new Point(4, 4)));
        assertEquals(new Label("b"), two.receive(b1));
        assertEquals(new Point(1, 1), one.receive(a1));
        assertEquals(new Point(2, 2), two.receive(b2));
        assertEquals(new Label("a"), one.receive(a2));
        assertEquals(new Pair(new Label("b3"), new Point(4, 4)), two.receive(b3));
        assertEquals(new Pair(new Point(3, 3), new Label("a3")), one.receive(a3));
    }

    @Test
    void shouldKeepTheTwoDirectionsOfOneSessionApart() {
        final CodecSession left = new CodecSession(Wire.TEST_CONFIG);
        final CodecSession right = new CodecSession(Wire.TEST_CONFIG);
        final byte[] l1 = left.encoder().encodeToBytes(new Point(1, 2));
        final byte[] r1 = right.encoder().encodeToBytes(new Label("r"));
        final byte[] r2 = right.encoder().encodeToBytes(new Point(3, 4));
        assertTrue(
                Wire.containsAscii(r2, Point.class.getName()),
                "right has not sent Point yet, even though it has received one");
        assertEquals(new Point(1, 2), right.decoder().decode(l1, Object.class));
        assertEquals(new Label("r"), left.decoder().decode(r1, Object.class));
        assertEquals(new Point(3, 4), left.decoder().decode(r2, Object.class));
    }

    @Test
    void shouldRefuseAnIdTheReceiverWasNeverToldAbout() {
        final Wire wire = Wire.permissive();
        wire.send(new Point(1, 2)); // the name crosses here, but this message is lost
        final byte[] second = wire.send(new Point(1, 2));
        assertThrows(SerializationException.class, () -> wire.receive(second));
    }

    @Test
    void shouldKeepTheTableAcrossManyMessages() {
        final Wire wire = Wire.permissive();
        final SplittableRandom random = new SplittableRandom(7);
        final Map<Class<?>, Integer> steadyLengths = new HashMap<>();
        for (int i = 0; i < 5_000; i++) {
            final Object message = switch (random.nextInt(6)) {
                case 0 -> new Point(3, 4);
                case 1 -> new Label("label");
                case 2 -> new Pair(new Point(1, 1), new Label("p"));
                case 3 -> new Reading(5, 6);
                case 4 -> new double[] {1, 2, 3};
                default -> new Batch(new ArrayList<>(List.of(new Reading(1, 1))), new HashMap<>(Map.of("k", 1)));
            };
            final byte[] bytes = wire.send(message);
            assertGraphEquals(message, wire.receive(bytes));
            final Integer steady = steadyLengths.get(message.getClass());
            if (steady == null) {
                final byte[] again = wire.send(message);
                assertGraphEquals(message, wire.receive(again));
                steadyLengths.put(message.getClass(), again.length);
            } else {
                assertEquals(
                        steady,
                        bytes.length,
                        () -> "message " + message.getClass().getName() + " grew");
            }
        }
    }

    @Test
    void shouldKeepWorkingAfterAnEncodeRefusedAClassMidGraph() {
        final Wire wire = new Wire(STRICT);
        wire.receive(wire.send(new Point(0, 0)));
        // Fresh's name would cross in this message, which fails on Forbidden after it.
        final SerializationException e =
                assertThrows(SerializationException.class, () -> wire.send(new Pair(new Fresh(1), new Forbidden(2))));
        assertInstanceOf(ClassNotAllowedException.class, e);
        final byte[] next = wire.send(new Pair(new Fresh(3), null));
        assertTrue(
                Wire.containsAscii(next, Fresh.class.getName()),
                "the failed message was never sent, so Fresh's name must cross now: " + Wire.hex(next));
        assertEquals(new Pair(new Fresh(3), null), wire.receive(next));
        assertEquals(new Point(5, 5), wire.receive(wire.send(new Point(5, 5))));
    }

    @Test
    void shouldKeepWorkingAfterADecodeRefusedAClassMidGraph() {
        final Wire wire = new Wire(PERMISSIVE, STRICT);
        wire.receive(wire.send(new Point(0, 0)));
        final byte[] refused = wire.send(new Pair(new Fresh(1), new Forbidden(2)));
        assertThrows(ClassNotAllowedException.class, () -> wire.receive(refused));
        // The sender sent Fresh's name in the refused message and will not send it again.
        final byte[] next = wire.send(new Pair(new Fresh(3), null));
        assertEquals(new Pair(new Fresh(3), null), wire.receive(next));
        assertEquals(new Point(5, 5), wire.receive(wire.send(new Point(5, 5))));
    }

    @Test
    void shouldLearnTheClassesAFailedMessageDefinesAfterTheRefusedOne() {
        final Wire wire = new Wire(PERMISSIVE, STRICT);
        // Fresh is defined after Forbidden: the receiver fails on Forbidden before it reaches Fresh in the body.
        final byte[] refused = wire.send(new Pair(new Forbidden(1), new Fresh(2)));
        assertThrows(ClassNotAllowedException.class, () -> wire.receive(refused));
        final byte[] next = wire.send(new Pair(new Fresh(3), new Label("x")));
        assertFalse(Wire.containsAscii(next, Fresh.class.getName()), "the sender does not name Fresh again");
        assertEquals(new Pair(new Fresh(3), new Label("x")), wire.receive(next));
        final ClassNotAllowedException again = assertThrows(
                ClassNotAllowedException.class,
                () -> wire.receive(wire.send(new Forbidden(4))),
                "a refused class stays refused");
        assertEquals(Forbidden.class.getName(), again.className());
        assertEquals(new Point(5, 5), wire.receive(wire.send(new Point(5, 5))));
    }

    @Test
    void shouldKeepWorkingAfterADecodeOfGarbage() {
        final Wire wire = Wire.permissive();
        assertEquals(new Point(1, 1), wire.receive(wire.send(new Point(1, 1))));
        final byte[] steady = wire.send(new Point(2, 2));
        assertThrows(SerializationException.class, () -> wire.receive(Arrays.copyOf(steady, steady.length - 3)));
        assertThrows(SerializationException.class, () -> wire.receive(new byte[] {0, 127, 1, 2, 3}));
        assertThrows(SerializationException.class, () -> wire.receive(new byte[] {4, 1, 9, (byte) 0x81}));
        assertThrows(
                SerializationException.class,
                () -> wire.receive(new byte[] {4, 1, 2, (byte) 0xC1, 0, 1}),
                "a definition may not replace a built-in class");
        assertThrows(SerializationException.class, () -> wire.receive(new byte[] {8}));
        assertThrows(
                SerializationException.class, () -> wire.receive(new byte[] {1}), "track-all needs the reference path");
        assertEquals(new Point(2, 2), wire.receive(steady));
        assertEquals(new Label("after"), wire.receive(wire.send(new Label("after"))));
    }

    @Test
    void shouldKeepWorkingAfterATruncatedFirstMessage() {
        final Wire wire = Wire.permissive();
        final byte[] first = wire.send(new Pair(new Point(1, 2), new Label("x")));
        for (int cut = 1; cut < first.length; cut++) {
            final byte[] truncated = Arrays.copyOf(first, cut);
            assertThrows(SerializationException.class, () -> wire.receive(truncated), "cut at " + cut);
        }
        assertEquals(new Pair(new Point(1, 2), new Label("x")), wire.receive(first));
        assertEquals(new Point(3, 4), wire.receive(wire.send(new Point(3, 4))));
    }
}
