package org.troupe.mpi.fabric;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Elements as bytes, little-endian: as they travel between JVMs (one copy on each side), and as {@code Comm.Pack}
 * writes them.
 */
public final class Wire {
    private Wire() {}

    /** The bytes of {@code count} elements of {@code array} from {@code offset}: a view of a byte[], else a copy. */
    static ByteBuffer toBytes(final Kind kind, final Object array, final int offset, final int count) {
        if (kind == Kind.BYTE) {
            return ByteBuffer.wrap((byte[]) array, offset, count);
        }
        if (kind == Kind.OBJECT) {
            return ByteBuffer.wrap((byte[]) array); // encoded already: the message's own bytes
        }
        final ByteBuffer b = ByteBuffer.allocate(count * kind.bytes());
        put(kind, array, offset, count, b);
        return b;
    }

    /** Writes {@code count} elements of {@code array} from {@code offset} into {@code into}, from its position. */
    public static void put(
            final Kind kind, final Object array, final int offset, final int count, final ByteBuffer into) {
        final ByteBuffer b = into.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        switch (kind) {
            case BYTE -> b.put((byte[]) array, offset, count);
            case CHAR -> b.asCharBuffer().put((char[]) array, offset, count);
            case SHORT -> b.asShortBuffer().put((short[]) array, offset, count);
            case INT -> b.asIntBuffer().put((int[]) array, offset, count);
            case LONG -> b.asLongBuffer().put((long[]) array, offset, count);
            case FLOAT -> b.asFloatBuffer().put((float[]) array, offset, count);
            case DOUBLE -> b.asDoubleBuffer().put((double[]) array, offset, count);
            case BOOLEAN -> {
                final boolean[] a = (boolean[]) array;
                for (int i = 0; i < count; i++) {
                    b.put(b.position() + i, (byte) (a[offset + i] ? 1 : 0));
                }
            }
            default -> throw new IllegalStateException(kind.name());
        }
    }

    /** Copies {@code count} elements from the bytes {@code src} (its position on) into {@code dst} at {@code offset}. */
    public static void copyInto(
            final ByteBuffer src, final Kind kind, final Object dst, final int offset, final int count) {
        final ByteBuffer b = src.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        switch (kind) {
            case BYTE -> b.get((byte[]) dst, offset, count);
            case CHAR -> b.asCharBuffer().get((char[]) dst, offset, count);
            case SHORT -> b.asShortBuffer().get((short[]) dst, offset, count);
            case INT -> b.asIntBuffer().get((int[]) dst, offset, count);
            case LONG -> b.asLongBuffer().get((long[]) dst, offset, count);
            case FLOAT -> b.asFloatBuffer().get((float[]) dst, offset, count);
            case DOUBLE -> b.asDoubleBuffer().get((double[]) dst, offset, count);
            case BOOLEAN -> {
                final boolean[] a = (boolean[]) dst;
                for (int i = 0; i < count; i++) {
                    a[offset + i] = b.get(b.position() + i) != 0;
                }
            }
            default -> throw new IllegalStateException(kind.name());
        }
    }

    /** A copy of the bytes between position and limit, as a buffer of its own. */
    static ByteBuffer own(final ByteBuffer src) {
        final ByteBuffer copy = ByteBuffer.allocate(src.remaining());
        copy.put(src.duplicate()).flip();
        return copy;
    }

    static byte[] bytes(final ByteBuffer src) {
        final byte[] a = new byte[src.remaining()];
        src.duplicate().get(a);
        return a;
    }
}
