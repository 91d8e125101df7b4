package org.troupe.serialization;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** The wire's byte order, as the views and layouts {@link TroupeOutput} and {@link TroupeInput} share. */
final class LittleEndian {
    /** Below this many elements a loop of single accesses beats setting up a bulk copy. */
    static final int BULK_THRESHOLD = 16;

    static final VarHandle SHORTS = view(short[].class);
    static final VarHandle CHARS = view(char[].class);
    static final VarHandle INTS = view(int[].class);
    static final VarHandle LONGS = view(long[].class);
    static final VarHandle FLOATS = view(float[].class);
    static final VarHandle DOUBLES = view(double[].class);

    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfChar CHAR = ValueLayout.JAVA_CHAR_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {}

    private static VarHandle view(final Class<?> arrayType) {
        return MethodHandles.byteArrayViewVarHandle(arrayType, ByteOrder.LITTLE_ENDIAN);
    }
}
