package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TroupeOutput} and {@link TroupeInput} on their own: Kryo's little-endian layout, bulk copies of the eight
 * primitive array types from and into arrays at offsets (below and above the bulk threshold of 16 elements), and
 * refusal of truncated input and forged lengths before anything is allocated.
 */
class BulkArraysTest {
    static Stream<Integer> counts() {
        return Stream.of(0, 1, 15, 16, 17, 64, 1_000);
    }

    private static TroupeInput inputOf(final TroupeOutput out) {
        return new TroupeInput(out.getBuffer(), 0, out.position());
    }

    @ParameterizedTest(name = "{0} elements")
    @MethodSource("counts")
    void shouldCopyEveryPrimitiveArrayTypeBetweenOffsets(final int count) {
        final SplittableRandom r = new SplittableRandom(count);
        final int srcOff = 3;
        final int dstOff = 5;
        final int n = srcOff + count + 2;
        final boolean[] z = new boolean[n];
        final byte[] b = new byte[n];
        final short[] s = new short[n];
        final char[] c = new char[n];
        final int[] i = new int[n];
        final long[] l = new long[n];
        final float[] f = new float[n];
        final double[] d = new double[n];
        for (int k = 0; k < n; k++) {
            z[k] = r.nextBoolean();
            b[k] = (byte) r.nextInt();
            s[k] = (short) r.nextInt();
            c[k] = (char) r.nextInt();
            i[k] = r.nextInt();
            l[k] = r.nextLong();
            f[k] = Float.intBitsToFloat(r.nextInt());
            d[k] = Double.longBitsToDouble(r.nextLong());
        }
        final TroupeOutput out = new TroupeOutput(16, 1 << 20);
        out.writeBooleans(z, srcOff, count);
        out.writeBytes(b, srcOff, count);
        out.writeShorts(s, srcOff, count);
        out.writeChars(c, srcOff, count);
        out.writeInts(i, srcOff, count);
        out.writeLongs(l, srcOff, count);
        out.writeFloats(f, srcOff, count);
        out.writeDoubles(d, srcOff, count);
        assertEquals(count * (1 + 1 + 2 + 2 + 4 + 8 + 4 + 8), out.position());

        final TroupeInput in = inputOf(out);
        final int m = dstOff + count + 1;
        final boolean[] z2 = new boolean[m];
        final byte[] b2 = new byte[m];
        final short[] s2 = new short[m];
        final char[] c2 = new char[m];
        final int[] i2 = new int[m];
        final long[] l2 = new long[m];
        final float[] f2 = new float[m];
        final double[] d2 = new double[m];
        in.readBooleans(z2, dstOff, count);
        in.readBytes(b2, dstOff, count);
        in.readShorts(s2, dstOff, count);
        in.readChars(c2, dstOff, count);
        in.readInts(i2, dstOff, count);
        in.readLongs(l2, dstOff, count);
        in.readFloats(f2, dstOff, count);
        in.readDoubles(d2, dstOff, count);
        assertEquals(0, in.remaining());
        for (int k = 0; k < m; k++) {
            final boolean inside = k >= dstOff && k < dstOff + count;
            final int src = k - dstOff + srcOff;
            assertEquals(inside && z[src], z2[k], "boolean " + k);
            assertEquals(inside ? b[src] : 0, b2[k], "byte " + k);
            assertEquals(inside ? s[src] : 0, s2[k], "short " + k);
            assertEquals(inside ? c[src] : 0, c2[k], "char " + k);
            assertEquals(inside ? i[src] : 0, i2[k], "int " + k);
            assertEquals(inside ? l[src] : 0, l2[k], "long " + k);
            assertEquals(inside ? Float.floatToRawIntBits(f[src]) : 0, Float.floatToRawIntBits(f2[k]), "float " + k);
            assertEquals(
                    inside ? Double.doubleToRawLongBits(d[src]) : 0, Double.doubleToRawLongBits(d2[k]), "double " + k);
        }
    }

    @ParameterizedTest(name = "{0} elements")
    @MethodSource("counts")
    void shouldReadIntoNewArrays(final int count) {
        final double[] d = new double[count];
        final int[] i = new int[count];
        final char[] c = new char[count];
        Arrays.setAll(d, k -> k * 1.5);
        Arrays.setAll(i, k -> -k);
        for (int k = 0; k < count; k++) {
            c[k] = (char) (0xD800 + k);
        }
        final TroupeOutput out = new TroupeOutput(16, 1 << 20);
        out.writeDoubles(d, 0, count);
        out.writeInts(i, 0, count);
        out.writeChars(c, 0, count);
        final TroupeInput in = inputOf(out);
        assertArrayEquals(d, in.readDoubles(count));
        assertArrayEquals(i, in.readInts(count));
        assertArrayEquals(c, in.readChars(count));
        assertEquals(0, in.remaining());
    }

    @ParameterizedTest(name = "{0} elements")
    @MethodSource("counts")
    void shouldWriteTheSameBytesAsKryo(final int count) {
        final SplittableRandom r = new SplittableRandom(31 + count);
        final short[] s = new short[count];
        final char[] c = new char[count];
        final int[] i = new int[count];
        final long[] l = new long[count];
        final float[] f = new float[count];
        final double[] d = new double[count];
        for (int k = 0; k < count; k++) {
            s[k] = (short) r.nextInt();
            c[k] = (char) r.nextInt();
            i[k] = r.nextInt();
            l[k] = r.nextLong();
            f[k] = (float) r.nextDouble();
            d[k] = r.nextDouble();
        }
        final TroupeOutput ours = new TroupeOutput(16, 1 << 20);
        final Output kryo = new Output(16, 1 << 20);
        for (final Output o : new Output[] {ours, kryo}) {
            o.writeShort(-2);
            o.writeChar('€');
            o.writeInt(0x01020304);
            o.writeLong(0x0102030405060708L);
            o.writeFloat(1.5f);
            o.writeDouble(-0.1);
            o.writeVarInt(300, true);
            o.writeString("héllo");
            o.writeShorts(s, 0, count);
            o.writeChars(c, 0, count);
            o.writeInts(i, 0, count);
            o.writeLongs(l, 0, count);
            o.writeFloats(f, 0, count);
            o.writeDoubles(d, 0, count);
        }
        assertArrayEquals(kryo.toBytes(), ours.toBytes());

        final TroupeInput in = new TroupeInput(kryo.toBytes(), 0, kryo.position());
        final Input reference = new Input(kryo.toBytes());
        assertEquals(reference.readShort(), in.readShort());
        assertEquals(reference.readChar(), in.readChar());
        assertEquals(reference.readInt(), in.readInt());
        assertEquals(reference.readLong(), in.readLong());
        assertEquals(reference.readFloat(), in.readFloat());
        assertEquals(reference.readDouble(), in.readDouble());
        assertEquals(reference.readVarInt(true), in.readVarInt(true));
        assertEquals(reference.readString(), in.readString());
        assertArrayEquals(reference.readShorts(count), in.readShorts(count));
        assertArrayEquals(reference.readChars(count), in.readChars(count));
        assertArrayEquals(reference.readInts(count), in.readInts(count));
        assertArrayEquals(reference.readLongs(count), in.readLongs(count));
        assertArrayEquals(reference.readFloats(count), in.readFloats(count));
        assertArrayEquals(reference.readDoubles(count), in.readDoubles(count));
    }

    @Test
    void shouldWriteLittleEndian() {
        final TroupeOutput out = new TroupeOutput(8, 1024);
        out.writeInt(0x01020304);
        out.writeLong(0x0102030405060708L);
        out.writeDoubles(new double[] {1.0}, 0, 1);
        final double[] many = new double[20];
        many[17] = Math.E;
        out.writeDoubles(many, 0, 20);
        final ByteBuffer expected = ByteBuffer.allocate(4 + 8 + 8 + 160).order(ByteOrder.LITTLE_ENDIAN);
        expected.putInt(0x01020304).putLong(0x0102030405060708L).putDouble(1.0);
        for (final double v : many) {
            expected.putDouble(v);
        }
        assertArrayEquals(expected.array(), out.toBytes());
        assertEquals(4, out.toBytes()[0]);
    }

    @Test
    void shouldReadAtAnOffsetOfTheBuffer() {
        final byte[] buffer = new byte[32];
        ByteBuffer.wrap(buffer).order(ByteOrder.LITTLE_ENDIAN).putInt(10, 77).putDouble(14, 2.5);
        final TroupeInput in = new TroupeInput(buffer, 10, 12);
        assertEquals(12, in.remaining());
        assertEquals(77, in.readInt());
        assertEquals(8, in.remaining());
        assertEquals(2.5, in.readDouble());
        assertEquals(0, in.remaining());
        assertThrows(KryoException.class, in::readByte);
    }

    @Test
    void shouldGrowTheOutputUpToItsMaximumOnly() {
        final TroupeOutput out = new TroupeOutput(4, 100);
        out.writeDoubles(new double[12], 0, 12);
        assertEquals(96, out.position());
        assertThrows(KryoException.class, () -> out.writeDoubles(new double[1], 0, 1));
        final TroupeOutput bulk = new TroupeOutput(4, 100);
        assertThrows(KryoException.class, () -> bulk.writeInts(new int[30], 0, 30));
    }

    @Test
    void shouldRefuseTruncatedInput() {
        final TroupeOutput out = new TroupeOutput(16, 1024);
        out.writeDoubles(new double[20], 0, 20);
        final byte[] bytes = out.toBytes();
        final TroupeInput in = new TroupeInput(bytes, 0, bytes.length - 1);
        final double[] dst = new double[20];
        assertThrows(KryoException.class, () -> in.readDoubles(dst, 0, 20));
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 7).readDouble());
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 3).readInt());
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 1).readShort());
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 1).readChar());
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 7).readLong());
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 3).readFloat());
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 15).readShorts(8));
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 15).readChars(8));
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 15).readInts(4));
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 15).readLongs(2));
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 15).readFloats(4));
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 15).readBooleans(16));
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 15).readBytes(16));
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, 0).readString());
    }

    @Test
    void shouldRefuseForgedHugeLengthsBeforeAllocating() {
        final TroupeInput in = new TroupeInput(new byte[64], 0, 64);
        // Each of these would need gigabytes (or more than an array can hold) if it were allocated.
        assertThrows(KryoException.class, () -> in.readDoubles(Integer.MAX_VALUE - 8));
        assertThrows(KryoException.class, () -> in.readLongs(Integer.MAX_VALUE));
        assertThrows(KryoException.class, () -> in.readInts(Integer.MAX_VALUE - 8));
        assertThrows(KryoException.class, () -> in.readFloats(Integer.MAX_VALUE - 8));
        assertThrows(KryoException.class, () -> in.readShorts(Integer.MAX_VALUE - 8));
        assertThrows(KryoException.class, () -> in.readChars(Integer.MAX_VALUE - 8));
        assertThrows(KryoException.class, () -> in.readBytes(Integer.MAX_VALUE - 8));
        assertThrows(KryoException.class, () -> in.readBooleans(Integer.MAX_VALUE - 8));
        assertThrows(KryoException.class, () -> in.readDoubles(9));
        assertThrows(KryoException.class, () -> in.readDoubles(-1));
        assertThrows(KryoException.class, () -> in.readInts(-5));
        assertEquals(64, in.remaining(), "nothing was consumed by the refused reads");
        assertThrows(KryoException.class, () -> in.checkAvailable(Integer.MAX_VALUE, 8));
    }

    @Test
    void shouldReadNullEmptyAndNonAsciiStrings() {
        final String[] strings = {null, "", "a", "é", "ascii text", "héllo", "🎉", "x".repeat(300)};
        final TroupeOutput out = new TroupeOutput(16, 1 << 16);
        for (final String s : strings) {
            out.writeString(s);
        }
        final TroupeInput in = inputOf(out);
        for (final String s : strings) {
            assertEquals(s, in.readString());
        }
        assertEquals(0, in.remaining());
        final TroupeInput again = inputOf(out);
        for (final String s : strings) {
            final StringBuilder sb = again.readStringBuilder();
            assertEquals(s, sb == null ? null : sb.toString());
        }
    }

    @Test
    void shouldRefuseAForgedStringLengthBeforeAllocating() {
        final Output forged = new Output(16);
        forged.writeVarIntFlag(true, Integer.MAX_VALUE - 1, true); // UTF-8 form: char count + 1
        forged.writeBytes(new byte[] {'a', 'b', 'c'});
        final byte[] bytes = forged.toBytes();
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, bytes.length).readString());
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, bytes.length).readStringBuilder());
    }

    @Test
    void shouldRefuseReadsOutsideTheTargetArray() {
        final TroupeOutput out = new TroupeOutput(16, 1024);
        out.writeDoubles(new double[40], 0, 40);
        final byte[] bytes = out.toBytes();
        final double[] dst = new double[10];
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, bytes.length).readDoubles(dst, 5, 6));
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, bytes.length).readDoubles(dst, -1, 2));
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, bytes.length).readDoubles(dst, 0, -1));
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, bytes.length).readInts(new int[3], 1, 3));
        assertThrows(KryoException.class, () -> new TroupeInput(bytes, 0, bytes.length).readBytes(new byte[3], 2, 2));
        assertArrayEquals(new double[10], dst, "a refused read writes nothing");
    }

    @Test
    void shouldStartEmptyAndReadAfterSetBuffer() {
        final TroupeInput in = new TroupeInput();
        final byte[] bytes = ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(-3)
                .array();
        in.setBuffer(bytes, 0, 8);
        assertEquals(8, in.remaining());
        assertEquals(-3, in.readLong());
    }
}
