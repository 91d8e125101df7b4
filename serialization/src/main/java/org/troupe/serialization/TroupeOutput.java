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
        int p = claim(bytesFor(count, 2));
        if (count < LittleEndian.BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 2) {
                LittleEndian.SHORTS.set(buffer, p, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), LittleEndian.SHORT, p, count);
        }
    }

    @Override
    public void writeChars(final char[] array, final int offset, final int count) {
        int p = claim(bytesFor(count, 2));
        if (count < LittleEndian.BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 2) {
                LittleEndian.CHARS.set(buffer, p, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), LittleEndian.CHAR, p, count);
        }
    }

    @Override
    public void writeInts(final int[] array, final int offset, final int count) {
        int p = claim(bytesFor(count, 4));
        if (count < LittleEndian.BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 4) {
                LittleEndian.INTS.set(buffer, p, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), LittleEndian.INT, p, count);
        }
    }

    @Override
    public void writeLongs(final long[] array, final int offset, final int count) {
        int p = claim(bytesFor(count, 8));
        if (count < LittleEndian.BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 8) {
                LittleEndian.LONGS.set(buffer, p, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), LittleEndian.LONG, p, count);
        }
    }

    @Override
    public void writeFloats(final float[] array, final int offset, final int count) {
        int p = claim(bytesFor(count, 4));
        if (count < LittleEndian.BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 4) {
                LittleEndian.FLOATS.set(buffer, p, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), LittleEndian.FLOAT, p, count);
        }
    }

    @Override
    public void writeDoubles(final double[] array, final int offset, final int count) {
        int p = claim(bytesFor(count, 8));
        if (count < LittleEndian.BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 8) {
                LittleEndian.DOUBLES.set(buffer, p, array[i]);
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
