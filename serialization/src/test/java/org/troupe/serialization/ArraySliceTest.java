package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ArraySlice}: only the range crosses; read back it is a slice over an exact array, or its elements land in
 * an array the receiver supplies ({@link Decoder#decodeInto}).
 */
class ArraySliceTest {
    record Halo(int face, ArraySlice<double[]> values) {}

    private final Wire wire = Wire.permissive();

    private static double[] ramp(final int n) {
        return IntStream.range(0, n).mapToDouble(i -> i + 0.25).toArray();
    }

    private int decodeInto(final byte[] message, final ArraySlice<?> target) {
        return wire.receiver.decoder().decodeInto(new TroupeInput(message, 0, message.length), target);
    }

    @Test
    void shouldSendOnlyTheRangeOfASlice() {
        final double[] source = ramp(1_000);
        final ArraySlice<double[]> slice = wire.roundTrip(ArraySlice.of(source, 100, 50));
        assertEquals(0, slice.offset());
        assertEquals(50, slice.length());
        assertArrayEquals(Arrays.copyOfRange(source, 100, 150), slice.array());
        final byte[] steady = wire.send(ArraySlice.of(source, 100, 50));
        assertTrue(steady.length < 50 * 8 + 16, "only 50 doubles cross, not 1000: " + steady.length + " bytes");
    }

    @Test
    void shouldWriteASliceAsItsElementTypeThenItsRange() {
        wire.receive(wire.send(ArraySlice.of(ramp(10), 2, 3)));
        // flags + class id + element type byte + varint (count + 1) + elements
        final byte[] steady = wire.send(ArraySlice.of(ramp(10), 2, 3));
        assertEquals(1 + 1 + 1 + 1 + 24, steady.length, Wire.hex(steady));
        final ArraySlice<?> copy = (ArraySlice<?>) wire.receive(steady);
        assertArrayEquals(new double[] {2.25, 3.25, 4.25}, (double[]) copy.array());
    }

    @Test
    void shouldRoundTripSlicesOfEveryPrimitiveType() {
        final RoundTripTest.AllArrays a = RoundTripTest.AllArrays.ofLength(40);
        assertArrayEquals(
                Arrays.copyOfRange(a.z, 3, 30),
                wire.roundTrip(ArraySlice.of(a.z, 3, 27)).array());
        assertArrayEquals(
                Arrays.copyOfRange(a.b, 3, 30),
                wire.roundTrip(ArraySlice.of(a.b, 3, 27)).array());
        assertArrayEquals(
                Arrays.copyOfRange(a.s, 3, 30),
                wire.roundTrip(ArraySlice.of(a.s, 3, 27)).array());
        assertArrayEquals(
                Arrays.copyOfRange(a.c, 3, 30),
                wire.roundTrip(ArraySlice.of(a.c, 3, 27)).array());
        assertArrayEquals(
                Arrays.copyOfRange(a.i, 3, 30),
                wire.roundTrip(ArraySlice.of(a.i, 3, 27)).array());
        assertArrayEquals(
                Arrays.copyOfRange(a.l, 3, 30),
                wire.roundTrip(ArraySlice.of(a.l, 3, 27)).array());
        assertArrayEquals(
                Arrays.copyOfRange(a.f, 3, 30),
                wire.roundTrip(ArraySlice.of(a.f, 3, 27)).array());
        assertArrayEquals(
                Arrays.copyOfRange(a.d, 3, 30),
                wire.roundTrip(ArraySlice.of(a.d, 3, 27)).array());
        assertArrayEquals(new int[0], wire.roundTrip(ArraySlice.of(a.i, 40, 0)).array());
    }

    @Test
    void shouldRoundTripASliceInAField() {
        final Halo halo = wire.roundTrip(new Halo(3, ArraySlice.of(ramp(64), 8, 16)));
        assertEquals(3, halo.face());
        assertArrayEquals(Arrays.copyOfRange(ramp(64), 8, 24), halo.values().array());
        assertEquals(16, halo.values().length());
    }

    @ParameterizedTest(name = "{0} elements")
    @ValueSource(ints = {0, 3, 16, 17, 500})
    void shouldDecodeASliceIntoTheCallersArrayAtAnOffset(final int count) {
        final double[] source = ramp(count + 20);
        final byte[] message = wire.send(ArraySlice.of(source, 10, count));
        final double[] target = new double[count + 40];
        Arrays.fill(target, -1);
        assertEquals(count, decodeInto(message, ArraySlice.of(target, 7, count + 5)));
        for (int i = 0; i < target.length; i++) {
            final double expected = i >= 7 && i < 7 + count ? source[10 + i - 7] : -1;
            assertEquals(expected, target[i], "element " + i);
        }
    }

    @Test
    void shouldDecodeIntoFromAMessageThatTracksReferences() {
        final double[] source = ramp(20);
        final double[] target = new double[20];
        for (int i = 0; i < 2; i++) {
            final TroupeOutput out = wire.sender.encoder().newOutput();
            wire.sender.encoder().encode(source, out, true);
            final byte[] message = out.toBytes();
            assertEquals(20, decodeInto(message, ArraySlice.of(target, 0, 20)));
            assertArrayEquals(source, target);
        }
    }

    @Test
    void shouldDecodeAPlainArrayIntoTheCallersArray() {
        final double[] source = ramp(30);
        final byte[] message = wire.send(source);
        final double[] target = new double[100];
        assertEquals(30, decodeInto(message, ArraySlice.of(target, 50, 50)));
        assertArrayEquals(source, Arrays.copyOfRange(target, 50, 80));
        assertArrayEquals(new double[50], Arrays.copyOfRange(target, 0, 50));
        final byte[] again = wire.send(source);
        assertEquals(30, decodeInto(again, ArraySlice.of(target, 0, 30)), "an exact fit is enough");
        assertArrayEquals(source, Arrays.copyOfRange(target, 0, 30));
    }

    @Test
    void shouldDecodeIntoEveryPrimitiveType() {
        final int[] ints = {1, 2, 3, 4};
        final int[] intTarget = new int[6];
        assertEquals(4, decodeInto(wire.send(ArraySlice.of(ints, 0, 4)), ArraySlice.of(intTarget, 2, 4)));
        assertArrayEquals(new int[] {0, 0, 1, 2, 3, 4}, intTarget);
        final long[] longTarget = new long[20];
        assertEquals(18, decodeInto(wire.send(new long[18]), ArraySlice.of(longTarget, 1, 19)));
        final boolean[] boolTarget = new boolean[3];
        assertEquals(2, decodeInto(wire.send(new boolean[] {true, true}), ArraySlice.of(boolTarget, 1, 2)));
        assertArrayEquals(new boolean[] {false, true, true}, boolTarget);
        final char[] charTarget = new char[5];
        assertEquals(3, decodeInto(wire.send("abc".toCharArray()), ArraySlice.of(charTarget, 2, 3)));
        assertEquals("\0\0abc", new String(charTarget));
    }

    @Test
    void shouldRefuseATargetTooSmallAndKeepWorking() {
        final double[] source = ramp(40);
        final byte[] message = wire.send(ArraySlice.of(source, 0, 40));
        final double[] target = new double[100];
        assertThrows(SerializationException.class, () -> decodeInto(message, ArraySlice.of(target, 0, 39)));
        final byte[] plain = wire.send(source);
        assertThrows(SerializationException.class, () -> decodeInto(plain, ArraySlice.of(target, 90, 10)));
        final byte[] next = wire.send(ArraySlice.of(source, 0, 40));
        assertEquals(40, decodeInto(next, ArraySlice.of(target, 0, 40)));
        assertArrayEquals(source, Arrays.copyOf(target, 40));
    }

    @Test
    void shouldRefuseAMessageOfAnotherTypeForDecodeInto() {
        final double[] target = new double[10];
        assertThrows(
                SerializationException.class,
                () -> decodeInto(wire.send(new int[] {1, 2}), ArraySlice.of(target, 0, 10)));
        assertThrows(
                SerializationException.class,
                () -> decodeInto(wire.send("not an array"), ArraySlice.of(target, 0, 10)));
        assertThrows(
                SerializationException.class,
                () -> decodeInto(wire.send(new Halo(1, null)), ArraySlice.of(target, 0, 10)));
        assertThrows(
                SerializationException.class,
                () -> decodeInto(wire.send(ArraySlice.of(new float[2], 0, 2)), ArraySlice.of(target, 0, 10)));
        final byte[] ok = wire.send(new double[] {5});
        assertEquals(1, decodeInto(ok, ArraySlice.of(target, 0, 10)));
        assertEquals(5, target[0]);
    }

    @Test
    void shouldRefuseSlicesOutsideTheirArray() {
        assertThrows(IndexOutOfBoundsException.class, () -> ArraySlice.of(new double[4], 2, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> ArraySlice.of(new double[4], -1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> ArraySlice.of(new double[4], 0, -1));
        assertThrows(IllegalArgumentException.class, () -> new ArraySlice<>(new Object[1], 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ArraySlice<>("not an array", 0, 1));
    }

    @Test
    void shouldRefuseAForgedSliceLengthBeforeAllocating() {
        wire.receive(wire.send(ArraySlice.of(ramp(40), 0, 40))); // the class name crosses
        final byte[] message = wire.send(ArraySlice.of(ramp(40), 0, 40));
        // The count is the first varint after the class id (and any element-type byte); forge every candidate.
        for (int at = 2; at <= 3; at++) {
            final byte[] forged = new byte[message.length + 4];
            System.arraycopy(message, 0, forged, 0, at);
            forged[at] = (byte) 0xFF;
            forged[at + 1] = (byte) 0xFF;
            forged[at + 2] = (byte) 0xFF;
            forged[at + 3] = (byte) 0xFF;
            forged[at + 4] = (byte) 0x07;
            System.arraycopy(message, at + 1, forged, at + 5, message.length - at - 1);
            assertThrows(SerializationException.class, () -> wire.receive(forged));
            final double[] target = new double[100];
            assertThrows(
                    SerializationException.class,
                    () -> wire.receiver
                            .decoder()
                            .decodeInto(new TroupeInput(forged, 0, forged.length), ArraySlice.of(target, 0, 100)));
        }
    }
}
