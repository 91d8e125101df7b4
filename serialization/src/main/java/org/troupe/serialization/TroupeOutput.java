package org.troupe.serialization;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Output;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

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
    /** Below this many elements a loop of single stores beats setting up a bulk copy. */
    private static final int BULK_THRESHOLD = 16;

    private static final VarHandle SHORTS = view(short[].class);
    private static final VarHandle CHARS = view(char[].class);
    private static final VarHandle INTS = view(int[].class);
    private static final VarHandle LONGS = view(long[].class);
    private static final VarHandle FLOATS = view(float[].class);
    private static final VarHandle DOUBLES = view(double[].class);

    private static VarHandle view(final Class<?> arrayType) {
        return MethodHandles.byteArrayViewVarHandle(arrayType, ByteOrder.LITTLE_ENDIAN);
    }

    static final ValueLayout.OfShort SHORT_LE = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfChar CHAR_LE = ValueLayout.JAVA_CHAR_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfFloat FLOAT_LE = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfDouble DOUBLE_LE = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

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

    // --- Fixed-width primitives ---

    @Override
    public void writeShort(final int value) {
        final int p = claim(2);
        SHORTS.set(buffer, p, (short) value);
    }

    @Override
    public void writeChar(final char value) {
        final int p = claim(2);
        CHARS.set(buffer, p, value);
    }

    @Override
    public void writeInt(final int value) {
        final int p = claim(4);
        INTS.set(buffer, p, value);
    }

    @Override
    public void writeLong(final long value) {
        final int p = claim(8);
        LONGS.set(buffer, p, value);
    }

    @Override
    public void writeFloat(final float value) {
        final int p = claim(4);
        FLOATS.set(buffer, p, value);
    }

    @Override
    public void writeDouble(final double value) {
        final int p = claim(8);
        DOUBLES.set(buffer, p, value);
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
        if (count < BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 2) {
                SHORTS.set(buffer, p, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), SHORT_LE, p, count);
        }
    }

    @Override
    public void writeChars(final char[] array, final int offset, final int count) {
        int p = claim(bytesFor(count, 2));
        if (count < BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 2) {
                CHARS.set(buffer, p, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), CHAR_LE, p, count);
        }
    }

    @Override
    public void writeInts(final int[] array, final int offset, final int count) {
        int p = claim(bytesFor(count, 4));
        if (count < BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 4) {
                INTS.set(buffer, p, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), INT_LE, p, count);
        }
    }

    @Override
    public void writeLongs(final long[] array, final int offset, final int count) {
        int p = claim(bytesFor(count, 8));
        if (count < BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 8) {
                LONGS.set(buffer, p, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), LONG_LE, p, count);
        }
    }

    @Override
    public void writeFloats(final float[] array, final int offset, final int count) {
        int p = claim(bytesFor(count, 4));
        if (count < BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 4) {
                FLOATS.set(buffer, p, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), FLOAT_LE, p, count);
        }
    }

    @Override
    public void writeDoubles(final double[] array, final int offset, final int count) {
        int p = claim(bytesFor(count, 8));
        if (count < BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 8) {
                DOUBLES.set(buffer, p, array[i]);
            }
        } else {
            MemorySegment.copy(array, offset, MemorySegment.ofArray(buffer), DOUBLE_LE, p, count);
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
