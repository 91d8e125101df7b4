package org.troupe.mpi.fabric;

import java.lang.reflect.Array;

/** The element kinds of the buffers ranks exchange: one per Java primitive array type. */
public enum Kind {
    BYTE(byte[].class, 1),
    CHAR(char[].class, 2),
    SHORT(short[].class, 2),
    BOOLEAN(boolean[].class, 1),
    INT(int[].class, 4),
    LONG(long[].class, 8),
    FLOAT(float[].class, 4),
    DOUBLE(double[].class, 8),
    /** Objects: a message carries them encoded, as bytes; the receiver decodes them with its own class loader. */
    OBJECT(Object[].class, 0);

    private final Class<?> arrayType;
    private final int bytes;

    Kind(final Class<?> arrayType, final int bytes) {
        this.arrayType = arrayType;
        this.bytes = bytes;
    }

    /** The array class a buffer of this kind is. */
    public Class<?> arrayType() {
        return arrayType;
    }

    /** Bytes per element. */
    public int bytes() {
        return bytes;
    }

    public Object newArray(final int length) {
        return Array.newInstance(arrayType.getComponentType(), length);
    }

    /** A copy of {@code count} elements of {@code array} from {@code offset}. */
    public Object copyOf(final Object array, final int offset, final int count) {
        final Object copy = newArray(count);
        System.arraycopy(array, offset, copy, 0, count);
        return copy;
    }
}
