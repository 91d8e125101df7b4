package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.KryoException;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;

/**
 * Reads primitive arrays as {@link TroupeOutput}'s {@code write...Array} methods write them for generated
 * serializers: a varint {@code length + 1} ({@code 0} for null), then the elements in bulk, little-endian. Public
 * for generated code only.
 */
public final class FieldCodecs {
    private FieldCodecs() {}

    private static int length(final TroupeInput in, final int elementSize) {
        final int n = in.readVarInt(true) - 1;
        if (n >= 0) {
            in.checkAvailable(n, elementSize);
        } else if (n < -1) {
            throw new KryoException("Corrupt message: array length " + n);
        }
        return n;
    }

    public static double[] readDoubleArray(final TroupeInput in) {
        final int n = length(in, 8);
        return n < 0 ? null : in.readDoubles(n);
    }

    public static float[] readFloatArray(final TroupeInput in) {
        final int n = length(in, 4);
        return n < 0 ? null : in.readFloats(n);
    }

    public static long[] readLongArray(final TroupeInput in) {
        final int n = length(in, 8);
        return n < 0 ? null : in.readLongs(n);
    }

    public static int[] readIntArray(final TroupeInput in) {
        final int n = length(in, 4);
        return n < 0 ? null : in.readInts(n);
    }

    public static short[] readShortArray(final TroupeInput in) {
        final int n = length(in, 2);
        return n < 0 ? null : in.readShorts(n);
    }

    public static char[] readCharArray(final TroupeInput in) {
        final int n = length(in, 2);
        return n < 0 ? null : in.readChars(n);
    }

    public static byte[] readByteArray(final TroupeInput in) {
        final int n = length(in, 1);
        return n < 0 ? null : in.readBytes(n);
    }

    public static boolean[] readBooleanArray(final TroupeInput in) {
        final int n = length(in, 1);
        return n < 0 ? null : in.readBooleans(n);
    }
}
