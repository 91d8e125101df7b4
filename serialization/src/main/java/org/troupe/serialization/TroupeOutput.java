package org.troupe.serialization;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Output;
import java.lang.foreign.MemorySegment;

/**
 * The in-memory output every Troupe message is written to: a growable byte array bounded by the maximum message
 * size, little-endian, with fixed-width primitives written by single stores and primitive arrays copied in bulk.
 *
 * <p>It is a Kryo {@link Output}, so Kryo's own serializers write through it unchanged; the overrides keep Kryo's
 * byte layout (Kryo 5 is little-endian too) and only make it faster. There is no stream behind it: a message is
 * always complete in the buffer before it is sent.
 *
 * <p>Not thread-safe: one writer at a time, as for any Kryo output.
 */
public final class TroupeOutput extends Output {
    /**
     * @param initialCapacity bytes allocated up front
     * @param maxCapacity the largest message this output may hold; writing more throws a {@link KryoException}
     */
    public TroupeOutput(final int initialCapacity, final int maxCapacity) {
        super(Math.min(initialCapacity, maxCapacity), maxCapacity);
    }

    /** Reserves {@code count} bytes and returns the position they start at. */
    private int claim(final int count) {
        if (capacity - position < count) {
            require(count);
        }
        final int p = position;
        position = p + count;
        return p;
    }

    /** Bytes needed for {@code count} elements of {@code elementSize}, refusing sizes that overflow an int. */
    private static int bytesFor(final int count, final int elementSize) {
        final long bytes = (long) count * elementSize;
        if (count < 0 || bytes > Integer.MAX_VALUE) {
            throw new KryoException("Array of " + count + " elements is too large to write");
        }
        return (int) bytes;
    }

    /** Inserts {@code count} bytes of {@code bytes} at {@code at}, moving what was written from there on up. */
    public void insert(final int at, final byte[] bytes, final int count) {
        if (at < 0 || at > position) {
            throw new IndexOutOfBoundsException("Cannot insert at " + at + " in " + position + " bytes written");
        }
        claim(count);
        System.arraycopy(buffer, at, buffer, at + count, position - count - at);
        System.arraycopy(bytes, 0, buffer, at, count);
    }

    // --- Variable-width integers ---

    /**
     * One-byte values (class ids, array lengths: nearly every varint of a message) without a call: Kryo's own
     * method is too large for the JIT to inline, and a call per varint was half the cost of writing a list.
     */
    @Override
    public int writeVarInt(final int value, final boolean optimizePositive) {
        if (optimizePositive && value >>> 7 == 0 && position < capacity) {
            buffer[position++] = (byte) value;
            return 1;
        }
        return super.writeVarInt(value, optimizePositive);
    }

    // --- Primitive arrays with their length, as fields of generated serializers ---
    //
    // A varint length + 1 (0 for null), then the elements, behind one bounds check for both. Written apart, the
    // output's position was stored and loaded again around every element, which cost a list of small arrays a
    // third of its encoding time.

    public void writeDoubleArray(final double[] array) {
        if (array == null) {
            writeVarInt(0, true);
        } else {
            putDoubles(claimArray(array.length, 8), array, 0, array.length);
        }
    }

    public void writeFloatArray(final float[] array) {
        if (array == null) {
            writeVarInt(0, true);
        } else {
            putFloats(claimArray(array.length, 4), array, 0, array.length);
        }
    }

    public void writeLongArray(final long[] array) {
        if (array == null) {
            writeVarInt(0, true);
        } else {
            putLongs(claimArray(array.length, 8), array, 0, array.length);
        }
    }

    public void writeIntArray(final int[] array) {
        if (array == null) {
            writeVarInt(0, true);
        } else {
            putInts(claimArray(array.length, 4), array, 0, array.length);
        }
    }

    public void writeShortArray(final short[] array) {
        if (array == null) {
            writeVarInt(0, true);
        } else {
            putShorts(claimArray(array.length, 2), array, 0, array.length);
        }
    }

    public void writeCharArray(final char[] array) {
        if (array == null) {
            writeVarInt(0, true);
        } else {
            putChars(claimArray(array.length, 2), array, 0, array.length);
        }
    }

    public void writeByteArray(final byte[] array) {
        if (array == null) {
            writeVarInt(0, true);
            return;
        }
        final int p = claimArray(array.length, 1); // may grow the buffer: read it after
        System.arraycopy(array, 0, buffer, p, array.length);
    }

    public void writeBooleanArray(final boolean[] array) {
        if (array == null) {
            writeVarInt(0, true);
            return;
        }
        int p = claimArray(array.length, 1);
        final byte[] b = buffer;
        for (final boolean value : array) {
            b[p++] = value ? (byte) 1 : 0;
        }
    }

    /** Claims room for an array's varint {@code n + 1} and its elements, writes the varint; returns where they go. */
    private int claimArray(final int n, final int elementSize) {
        final int value = n + 1;
        final int header =
                value >>> 7 == 0 ? 1 : value >>> 14 == 0 ? 2 : value >>> 21 == 0 ? 3 : value >>> 28 == 0 ? 4 : 5;
        final long bytes = header + (long) n * elementSize;
        if (bytes > Integer.MAX_VALUE) {
            throw new KryoException("Array of " + n + " elements is too large to write");
        }
        int p = claim((int) bytes);
        final byte[] b = buffer;
        int v = value;
        for (int i = 1; i < header; i++, v >>>= 7) {
            b[p++] = (byte) ((v & 0x7F) | 0x80);
        }
        b[p++] = (byte) v;
        return p;
    }

    // --- Fixed-width primitives ---

    @Override
    public void writeShort(final int value) {
        final int p = claim(2);
        LittleEndian.SHORTS.set(buffer, p, (short) value);
    }

    @Override
    public void writeChar(final char value) {
        final int p = claim(2);
        LittleEndian.CHARS.set(buffer, p, value);
    }

    @Override
    public void writeInt(final int value) {
        final int p = claim(4);
        LittleEndian.INTS.set(buffer, p, value);
    }

    @Override
    public void writeLong(final long value) {
        final int p = claim(8);
        LittleEndian.LONGS.set(buffer, p, value);
    }

    @Override
    public void writeFloat(final float value) {
        final int p = claim(4);
        LittleEndian.FLOATS.set(buffer, p, value);
    }

    @Override
    public void writeDouble(final double value) {
        final int p = claim(8);
        LittleEndian.DOUBLES.set(buffer, p, value);
    }

    // --- Bulk primitive arrays (no length prefix: the caller writes it) ---

    @Override
    public void writeBytes(final byte[] array, final int offset, final int count) {
        final int p = claim(count);
        System.arraycopy(array, offset, buffer, p, count);
    }

    @Override
    public void writeShorts(final short[] array, final int offset, final int count) {
        putShorts(claim(bytesFor(count, 2)), array, offset, count);
    }

    /** Puts {@code count} elements at {@code p}, already claimed: a loop for a few, one bulk copy for more. */
    private void putShorts(final int p, final short[] array, final int offset, final int count) {
        if (count < LittleEndian.BULK_THRESHOLD) {
            final byte[] b = buffer;
            for (int i = offset, n = offset + count, at = p; i < n; i++, at += 2) {
                LittleEndian.SHORTS.set(b, at, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), LittleEndian.SHORT, p, count);
        }
    }

    @Override
    public void writeChars(final char[] array, final int offset, final int count) {
        putChars(claim(bytesFor(count, 2)), array, offset, count);
    }

    /** Puts {@code count} elements at {@code p}, already claimed: a loop for a few, one bulk copy for more. */
    private void putChars(final int p, final char[] array, final int offset, final int count) {
        if (count < LittleEndian.BULK_THRESHOLD) {
            final byte[] b = buffer;
            for (int i = offset, n = offset + count, at = p; i < n; i++, at += 2) {
                LittleEndian.CHARS.set(b, at, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), LittleEndian.CHAR, p, count);
        }
    }

    @Override
    public void writeInts(final int[] array, final int offset, final int count) {
        putInts(claim(bytesFor(count, 4)), array, offset, count);
    }

    /** Puts {@code count} elements at {@code p}, already claimed: a loop for a few, one bulk copy for more. */
    private void putInts(final int p, final int[] array, final int offset, final int count) {
        if (count < LittleEndian.BULK_THRESHOLD) {
            final byte[] b = buffer;
            for (int i = offset, n = offset + count, at = p; i < n; i++, at += 4) {
                LittleEndian.INTS.set(b, at, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), LittleEndian.INT, p, count);
        }
    }

    @Override
    public void writeLongs(final long[] array, final int offset, final int count) {
        putLongs(claim(bytesFor(count, 8)), array, offset, count);
    }

    /** Puts {@code count} elements at {@code p}, already claimed: a loop for a few, one bulk copy for more. */
    private void putLongs(final int p, final long[] array, final int offset, final int count) {
        if (count < LittleEndian.BULK_THRESHOLD) {
            final byte[] b = buffer;
            for (int i = offset, n = offset + count, at = p; i < n; i++, at += 8) {
                LittleEndian.LONGS.set(b, at, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), LittleEndian.LONG, p, count);
        }
    }

    @Override
    public void writeFloats(final float[] array, final int offset, final int count) {
        putFloats(claim(bytesFor(count, 4)), array, offset, count);
    }

    /** Puts {@code count} elements at {@code p}, already claimed: a loop for a few, one bulk copy for more. */
    private void putFloats(final int p, final float[] array, final int offset, final int count) {
        if (count < LittleEndian.BULK_THRESHOLD) {
            final byte[] b = buffer;
            for (int i = offset, n = offset + count, at = p; i < n; i++, at += 4) {
                LittleEndian.FLOATS.set(b, at, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), LittleEndian.FLOAT, p, count);
        }
    }

    @Override
    public void writeDoubles(final double[] array, final int offset, final int count) {
        putDoubles(claim(bytesFor(count, 8)), array, offset, count);
    }

    /** Puts {@code count} elements at {@code p}, already claimed: a loop for a few, one bulk copy for more. */
    private void putDoubles(final int p, final double[] array, final int offset, final int count) {
        if (count < LittleEndian.BULK_THRESHOLD) {
            final byte[] b = buffer;
            for (int i = offset, n = offset + count, at = p; i < n; i++, at += 8) {
                LittleEndian.DOUBLES.set(b, at, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), LittleEndian.DOUBLE, p, count);
        }
    }

    @Override
    public void writeBooleans(final boolean[] array, final int offset, final int count) {
        int p = claim(count);
        final byte[] b = buffer;
        for (int i = offset, n = offset + count; i < n; i++) {
            b[p++] = array[i] ? (byte) 1 : 0;
        }
    }
}
