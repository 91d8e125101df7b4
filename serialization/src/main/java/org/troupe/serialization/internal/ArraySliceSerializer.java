package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.lang.reflect.Array;
import java.util.List;
import org.troupe.serialization.ArraySlice;
import org.troupe.serialization.SerializationException;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;

/**
 * An {@link ArraySlice} on the wire: one byte for the element type, then its elements exactly as a primitive array
 * of that length ({@link FieldCodecs}). Read back, a slice covers a new array of exactly its length.
 */
public final class ArraySliceSerializer extends Serializer<ArraySlice<?>> {
    /** Element types in wire order; the index is the type byte. */
    private static final List<Class<?>> ARRAY_TYPES = List.of(
            double[].class,
            float[].class,
            long[].class,
            int[].class,
            short[].class,
            char[].class,
            byte[].class,
            boolean[].class);

    public ArraySliceSerializer() {
        super(false, true);
    }

    @Override
    public void write(final Kryo kryo, final Output output, final ArraySlice<?> slice) {
        final TroupeOutput out = (TroupeOutput) output;
        final Object a = slice.array();
        final int off = slice.offset();
        final int n = slice.length();
        out.writeByte(ARRAY_TYPES.indexOf(a.getClass()));
        out.writeVarInt(n + 1, true);
        switch (a) {
            case double[] d -> out.writeDoubles(d, off, n);
            case float[] f -> out.writeFloats(f, off, n);
            case long[] l -> out.writeLongs(l, off, n);
            case int[] i -> out.writeInts(i, off, n);
            case short[] s -> out.writeShorts(s, off, n);
            case char[] c -> out.writeChars(c, off, n);
            case byte[] b -> out.writeBytes(b, off, n);
            case boolean[] z -> out.writeBooleans(z, off, n);
            default -> throw new IllegalStateException(a.getClass().getName());
        }
    }

    @Override
    public ArraySlice<?> read(final Kryo kryo, final Input input, final Class<? extends ArraySlice<?>> type) {
        final TroupeInput in = (TroupeInput) input;
        final Class<?> arrayType = elementType(in);
        final Object array = switch (ARRAY_TYPES.indexOf(arrayType)) {
            case 0 -> FieldCodecs.readDoubleArray(in);
            case 1 -> FieldCodecs.readFloatArray(in);
            case 2 -> FieldCodecs.readLongArray(in);
            case 3 -> FieldCodecs.readIntArray(in);
            case 4 -> FieldCodecs.readShortArray(in);
            case 5 -> FieldCodecs.readCharArray(in);
            case 6 -> FieldCodecs.readByteArray(in);
            default -> FieldCodecs.readBooleanArray(in);
        };
        if (array == null) {
            throw new KryoException("Corrupt message: a slice without an array");
        }
        return new ArraySlice<>(array, 0, Array.getLength(array));
    }

    private static Class<?> elementType(final TroupeInput in) {
        final int index = in.readByte();
        if (index < 0 || index >= ARRAY_TYPES.size()) {
            throw new KryoException("Corrupt message: unknown slice element type " + index);
        }
        return ARRAY_TYPES.get(index);
    }

    /**
     * Reads the body of a message whose root class is {@code rootType} (a primitive array or a slice) into
     * {@code target}'s array. Returns the number of elements read.
     */
    public static int readInto(final TroupeInput in, final Class<?> rootType, final ArraySlice<?> target) {
        final Class<?> wanted = target.array().getClass();
        final Class<?> sent = rootType == ArraySlice.class ? elementType(in) : rootType;
        if (sent != wanted) {
            throw new SerializationException("Expected a message of " + wanted.getSimpleName()
                    + " elements but received " + (sent == null ? "null" : "a " + sent.getTypeName()));
        }
        final int n = in.readVarInt(true) - 1;
        if (n < 0) {
            throw new SerializationException(
                    "Expected a message of " + wanted.getSimpleName() + " elements but received null");
        }
        if (n > target.length()) {
            throw new SerializationException(
                    "Received " + n + " elements but the target slice holds only " + target.length());
        }
        final int off = target.offset();
        switch (target.array()) {
            case double[] d -> in.readDoubles(d, off, n);
            case float[] f -> in.readFloats(f, off, n);
            case long[] l -> in.readLongs(l, off, n);
            case int[] i -> in.readInts(i, off, n);
            case short[] s -> in.readShorts(s, off, n);
            case char[] c -> in.readChars(c, off, n);
            case byte[] b -> in.readBytes(b, off, n);
            case boolean[] z -> in.readBooleans(z, off, n);
            default -> throw new IllegalStateException(wanted.getName());
        }
        return n;
    }
}
