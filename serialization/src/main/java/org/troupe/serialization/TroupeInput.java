package org.troupe.serialization;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.KryoBufferUnderflowException;
import java.lang.foreign.MemorySegment;

/**
 * The input every Troupe message is read from: one complete message in a byte array, read little-endian, with
 * primitive arrays copied in bulk into new arrays or into arrays the caller supplies.
 *
 * <p>Hostile input is expected: every length read from the wire is checked against the bytes that remain
 * <em>before</em> anything is allocated, so a forged length fails with a {@link KryoException} instead of an
 * {@link OutOfMemoryError}. A truncated message fails with {@link KryoBufferUnderflowException}.
 *
 * <p>Not thread-safe: one reader at a time.
 */
public final class TroupeInput extends Input {
    /** An input with no bytes yet; call {@link #setBuffer(byte[], int, int)} before reading. */
    public TroupeInput() {
        super();
    }

    /** Reads the {@code count} bytes of {@code buffer} that start at {@code offset}. */
    public TroupeInput(final byte[] buffer, final int offset, final int count) {
        super(buffer, offset, count);
    }

    /**
     * Container elements the current message may still announce. Each element takes at least one byte of its own,
     * so the elements of all containers in a message together are at most its size: this stops a message of
     * nested containers from making each pre-size its array from the whole message (quadratic allocation).
     */
    private long elementBudget = Integer.MAX_VALUE;

    /** Bytes not read yet. */
    public int remaining() {
        return limit - position;
    }

    /** Takes {@code count} bytes and returns the position they start at; fails if fewer remain. */
    private int take(final int count) {
        if (limit - position < count) {
            throw new KryoBufferUnderflowException("Message truncated: " + count + " bytes needed at offset " + position
                    + ", " + (limit - position) + " left");
        }
        final int p = position;
        position = p + count;
        return p;
    }

    /**
     * Checks that {@code count} elements of {@code elementSize} bytes can still be in this message, before an array
     * of that many elements is allocated. Serializers of collections call it with the least size of an element.
     */
    public void checkAvailable(final int count, final int elementSize) {
        if (count < 0 || (long) count * elementSize > limit - position) {
            throw new KryoException("Corrupt message: " + count + " elements announced at offset " + position
                    + " but only " + (limit - position) + " bytes remain");
        }
    }

    /** Starts a message that ends at the limit: resets the budget of container elements to its size. */
    void startMessage() {
        elementBudget = remaining();
    }

    /**
     * Checks a container's element count read from the wire before the container is allocated: it must fit in the
     * bytes left and in what the message's other containers left of its budget.
     */
    public void checkElements(final int count) {
        checkAvailable(count, 1);
        elementBudget -= count;
        if (elementBudget < 0) {
            throw new KryoException("Corrupt message: its containers announce more elements than it has bytes"
                    + " (at offset " + position + ")");
        }
    }

    private int takeElements(final int count, final int elementSize) {
        checkAvailable(count, elementSize);
        return take(count * elementSize);
    }

    private static void checkRange(final int arrayLength, final int offset, final int count) {
        if (offset < 0 || count < 0 || offset > arrayLength - count) {
            throw new KryoException(
                    "Cannot read " + count + " elements at offset " + offset + " into an array of " + arrayLength);
        }
    }

    // --- Variable-width integers ---

    /** One-byte values without a call, as {@link TroupeOutput#writeVarInt} writes them. */
    @Override
    public int readVarInt(final boolean optimizePositive) {
        if (optimizePositive && position < limit) {
            final byte b = buffer[position];
            if (b >= 0) {
                position++;
                return b;
            }
        }
        return super.readVarInt(optimizePositive);
    }

    // --- Fixed-width primitives ---

    @Override
    public short readShort() {
        return (short) LittleEndian.SHORTS.get(buffer, take(2));
    }

    @Override
    public int readShortUnsigned() {
        return readShort() & 0xFFFF;
    }

    @Override
    public char readChar() {
        return (char) LittleEndian.CHARS.get(buffer, take(2));
    }

    @Override
    public int readInt() {
        return (int) LittleEndian.INTS.get(buffer, take(4));
    }

    @Override
    public long readLong() {
        return (long) LittleEndian.LONGS.get(buffer, take(8));
    }

    @Override
    public float readFloat() {
        return (float) LittleEndian.FLOATS.get(buffer, take(4));
    }

    @Override
    public double readDouble() {
        return (double) LittleEndian.DOUBLES.get(buffer, take(8));
    }

    // --- Strings: bounded before Kryo allocates its char buffer ---

    @Override
    public String readString() {
        checkStringLength();
        return super.readString();
    }

    @Override
    public StringBuilder readStringBuilder() {
        checkStringLength();
        return super.readStringBuilder();
    }

    /** Kryo's UTF-8 form announces a char count; each char takes at least one byte. */
    private void checkStringLength() {
        final int start = position;
        if (start == limit) {
            take(1);
        }
        if ((buffer[start] & 0x80) == 0) {
            return; // ASCII form: terminated by a high bit, no count to trust.
        }
        final int charCountPlusOne = readVarIntFlag(true);
        position = start;
        if (charCountPlusOne != 0) { // 0 is null
            checkAvailable(charCountPlusOne - 1, 1);
        }
    }

    // --- Bulk primitive arrays into new arrays ---

    @Override
    public byte[] readBytes(final int length) {
        checkAvailable(length, 1);
        final byte[] array = new byte[length];
        System.arraycopy(buffer, take(length), array, 0, length);
        return array;
    }

    @Override
    public void readBytes(final byte[] bytes, final int offset, final int count) {
        checkRange(bytes.length, offset, count);
        System.arraycopy(buffer, take(count), bytes, offset, count);
    }

    @Override
    public short[] readShorts(final int length) {
        final int p = takeElements(length, 2); // checked before the allocation
        final short[] array = new short[length];
        copyShorts(p, array, 0, length);
        return array;
    }

    @Override
    public char[] readChars(final int length) {
        final int p = takeElements(length, 2); // checked before the allocation
        final char[] array = new char[length];
        copyChars(p, array, 0, length);
        return array;
    }

    @Override
    public int[] readInts(final int length) {
        final int p = takeElements(length, 4); // checked before the allocation
        final int[] array = new int[length];
        copyInts(p, array, 0, length);
        return array;
    }

    @Override
    public long[] readLongs(final int length) {
        final int p = takeElements(length, 8); // checked before the allocation
        final long[] array = new long[length];
        copyLongs(p, array, 0, length);
        return array;
    }

    @Override
    public float[] readFloats(final int length) {
        final int p = takeElements(length, 4); // checked before the allocation
        final float[] array = new float[length];
        copyFloats(p, array, 0, length);
        return array;
    }

    @Override
    public double[] readDoubles(final int length) {
        final int p = takeElements(length, 8); // checked before the allocation
        final double[] array = new double[length];
        copyDoubles(p, array, 0, length);
        return array;
    }

    @Override
    public boolean[] readBooleans(final int length) {
        checkAvailable(length, 1);
        final boolean[] array = new boolean[length];
        readBooleans(array, 0, length);
        return array;
    }

    // --- Bulk primitive arrays into caller-supplied arrays ---

    /** Reads {@code count} shorts into {@code dst} starting at {@code offset}. */
    public void readShorts(final short[] dst, final int offset, final int count) {
        checkRange(dst.length, offset, count);
        copyShorts(takeElements(count, 2), dst, offset, count);
    }

    private void copyShorts(int p, final short[] dst, final int offset, final int count) {
        if (count < LittleEndian.BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 2) {
                dst[i] = (short) LittleEndian.SHORTS.get(buffer, p);
            }
        } else {
            MemorySegment.copy(MemorySegment.ofArray(buffer), LittleEndian.SHORT, p, dst, offset, count);
        }
    }

    /** Reads {@code count} chars into {@code dst} starting at {@code offset}. */
    public void readChars(final char[] dst, final int offset, final int count) {
        checkRange(dst.length, offset, count);
        copyChars(takeElements(count, 2), dst, offset, count);
    }

    private void copyChars(int p, final char[] dst, final int offset, final int count) {
        if (count < LittleEndian.BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 2) {
                dst[i] = (char) LittleEndian.CHARS.get(buffer, p);
            }
        } else {
            MemorySegment.copy(MemorySegment.ofArray(buffer), LittleEndian.CHAR, p, dst, offset, count);
        }
    }

    /** Reads {@code count} ints into {@code dst} starting at {@code offset}. */
    public void readInts(final int[] dst, final int offset, final int count) {
        checkRange(dst.length, offset, count);
        copyInts(takeElements(count, 4), dst, offset, count);
    }

    private void copyInts(int p, final int[] dst, final int offset, final int count) {
        if (count < LittleEndian.BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 4) {
                dst[i] = (int) LittleEndian.INTS.get(buffer, p);
            }
        } else {
            MemorySegment.copy(MemorySegment.ofArray(buffer), LittleEndian.INT, p, dst, offset, count);
        }
    }

    /** Reads {@code count} longs into {@code dst} starting at {@code offset}. */
    public void readLongs(final long[] dst, final int offset, final int count) {
        checkRange(dst.length, offset, count);
        copyLongs(takeElements(count, 8), dst, offset, count);
    }

    private void copyLongs(int p, final long[] dst, final int offset, final int count) {
        if (count < LittleEndian.BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 8) {
                dst[i] = (long) LittleEndian.LONGS.get(buffer, p);
            }
        } else {
            MemorySegment.copy(MemorySegment.ofArray(buffer), LittleEndian.LONG, p, dst, offset, count);
        }
    }

    /** Reads {@code count} floats into {@code dst} starting at {@code offset}. */
    public void readFloats(final float[] dst, final int offset, final int count) {
        checkRange(dst.length, offset, count);
        copyFloats(takeElements(count, 4), dst, offset, count);
    }

    private void copyFloats(int p, final float[] dst, final int offset, final int count) {
        if (count < LittleEndian.BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 4) {
                dst[i] = (float) LittleEndian.FLOATS.get(buffer, p);
            }
        } else {
            MemorySegment.copy(MemorySegment.ofArray(buffer), LittleEndian.FLOAT, p, dst, offset, count);
        }
    }

    /** Reads {@code count} doubles into {@code dst} starting at {@code offset}. */
    public void readDoubles(final double[] dst, final int offset, final int count) {
        checkRange(dst.length, offset, count);
        copyDoubles(takeElements(count, 8), dst, offset, count);
    }

    private void copyDoubles(int p, final double[] dst, final int offset, final int count) {
        if (count < LittleEndian.BULK_THRESHOLD) {
            for (int i = offset, n = offset + count; i < n; i++, p += 8) {
                dst[i] = (double) LittleEndian.DOUBLES.get(buffer, p);
            }
        } else {
            MemorySegment.copy(MemorySegment.ofArray(buffer), LittleEndian.DOUBLE, p, dst, offset, count);
        }
    }

    /** Reads {@code count} booleans into {@code dst} starting at {@code offset}. */
    public void readBooleans(final boolean[] dst, final int offset, final int count) {
        checkRange(dst.length, offset, count);
        final int p = takeElements(count, 1);
        final byte[] b = buffer;
        for (int i = 0; i < count; i++) {
            dst[offset + i] = b[p + i] != 0;
        }
    }
}
