package org.troupe.serialization;

import java.lang.reflect.Array;
import java.util.Objects;

/**
 * A sub-range of a primitive array, as a message or a field of one: only its {@code length} elements cross the wire,
 * copied in bulk. Read back, it is a slice over a new array of exactly that length (offset 0), or, with
 * {@link Decoder#decodeInto(TroupeInput, ArraySlice)}, the elements land in an array the receiver supplies.
 *
 * <p>{@link Decoder#decodeInto(TroupeInput, ArraySlice)} accepts a message that is a slice or a plain array of the
 * same element type, so a {@code double[]} sent by one side can be received into a slice by the other.
 *
 * @param <A> the primitive array type, such as {@code double[]}
 * @param array the array; not copied, so it must not change until the message is encoded
 * @param offset index of the first element
 * @param length number of elements
 */
public record ArraySlice<A>(A array, int offset, int length) {
    public ArraySlice {
        Objects.requireNonNull(array, "array");
        final Class<?> type = array.getClass();
        if (!type.isArray() || !type.getComponentType().isPrimitive()) {
            throw new IllegalArgumentException("An ArraySlice holds a primitive array, not a " + type.getTypeName());
        }
        final int arrayLength = Array.getLength(array);
        if (offset < 0 || length < 0 || offset > arrayLength - length) {
            throw new IndexOutOfBoundsException("Slice [" + offset + ", " + offset + " + " + length
                    + ") is outside an array of length " + arrayLength);
        }
    }

    public static ArraySlice<double[]> of(final double[] array, final int offset, final int length) {
        return new ArraySlice<>(array, offset, length);
    }

    public static ArraySlice<float[]> of(final float[] array, final int offset, final int length) {
        return new ArraySlice<>(array, offset, length);
    }

    public static ArraySlice<long[]> of(final long[] array, final int offset, final int length) {
        return new ArraySlice<>(array, offset, length);
    }

    public static ArraySlice<int[]> of(final int[] array, final int offset, final int length) {
        return new ArraySlice<>(array, offset, length);
    }

    public static ArraySlice<short[]> of(final short[] array, final int offset, final int length) {
        return new ArraySlice<>(array, offset, length);
    }

    public static ArraySlice<char[]> of(final char[] array, final int offset, final int length) {
        return new ArraySlice<>(array, offset, length);
    }

    public static ArraySlice<byte[]> of(final byte[] array, final int offset, final int length) {
        return new ArraySlice<>(array, offset, length);
    }

    public static ArraySlice<boolean[]> of(final boolean[] array, final int offset, final int length) {
        return new ArraySlice<>(array, offset, length);
    }
}
