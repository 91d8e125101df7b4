package mpi;

import org.troupe.mpi.fabric.Kind;

/**
 * A reduction operation: one of MPI's predefined ones ({@link MPI#SUM}, {@link MPI#MAXLOC}, ...) or a user's
 * {@link User_function}. It combines {@code in} into {@code inout} as {@code inout[i] = in[i] op inout[i]}, so a
 * reduction over ranks 0..n-1 computes {@code x0 op x1 op ... op xn-1} even when the operation does not commute.
 */
public class Op {
    enum Predefined {
        MAX,
        MIN,
        SUM,
        PROD,
        LAND,
        BAND,
        LOR,
        BOR,
        LXOR,
        BXOR,
        MAXLOC,
        MINLOC
    }

    private final Predefined predefined;
    private final User_function function;
    private final boolean commute;

    Op(final Predefined predefined) {
        this.predefined = predefined;
        this.function = null;
        this.commute = true;
    }

    public Op(final User_function function, final boolean commute) {
        this.predefined = null;
        this.function = function;
        this.commute = commute;
    }

    public boolean Is_commute() {
        return commute;
    }

    public void Free() {}

    /** {@link #Free}, as MPJ Express spells it. */
    public void free() {}

    /** Throws if this predefined operation is not defined on {@code type}'s elements (a user's takes any). */
    void checkApplies(final Datatype type) throws MPIException {
        if (predefined == null) {
            return;
        }
        final Kind k = type.kind;
        final boolean real = k == Kind.FLOAT || k == Kind.DOUBLE;
        final boolean ok = switch (predefined) {
            case SUM, PROD, MAX, MIN -> k != Kind.BOOLEAN && k != Kind.OBJECT;
            case LAND, LOR, LXOR, BAND, BOR, BXOR -> !real && k != Kind.OBJECT;
            case MAXLOC, MINLOC ->
                type.elements % 2 == 0 && k != Kind.BOOLEAN && k != Kind.OBJECT && k != Kind.BYTE && k != Kind.CHAR;
        };
        if (!ok) {
            throw new MPIException(this + " is not defined on " + type
                    + (predefined == Predefined.MAXLOC || predefined == Predefined.MINLOC
                            ? " (it takes SHORT2, INT2, LONG2, FLOAT2 or DOUBLE2)"
                            : ""));
        }
    }

    /** {@code inout = in op inout} over {@code count} items of {@code type}. */
    void apply(
            final Object in,
            final int inOffset,
            final Object inout,
            final int inoutOffset,
            final int count,
            final Datatype type)
            throws MPIException {
        if (function != null) {
            function.Call(in, inOffset, inout, inoutOffset, count, type);
            return;
        }
        final int n = count * type.elements;
        if (predefined == Predefined.MAXLOC || predefined == Predefined.MINLOC) {
            if (type.elements % 2 != 0) {
                throw new MPIException(predefined + " needs a pair type (MPI.INT2, MPI.DOUBLE2, ...), not " + type);
            }
            pairs(in, inOffset, inout, inoutOffset, n, type.kind, predefined == Predefined.MAXLOC);
            return;
        }
        switch (type.kind) {
            case DOUBLE -> doubles((double[]) in, inOffset, (double[]) inout, inoutOffset, n);
            case FLOAT -> {
                final float[] a = (float[]) in;
                final float[] b = (float[]) inout;
                for (int i = 0; i < n; i++) {
                    b[inoutOffset + i] = (float) real(a[inOffset + i], b[inoutOffset + i], type);
                }
            }
            case INT -> ints((int[]) in, inOffset, (int[]) inout, inoutOffset, n, type);
            case LONG -> {
                final long[] a = (long[]) in;
                final long[] b = (long[]) inout;
                for (int i = 0; i < n; i++) {
                    b[inoutOffset + i] = integral(a[inOffset + i], b[inoutOffset + i], type);
                }
            }
            case SHORT -> {
                final short[] a = (short[]) in;
                final short[] b = (short[]) inout;
                for (int i = 0; i < n; i++) {
                    b[inoutOffset + i] = (short) integral(a[inOffset + i], b[inoutOffset + i], type);
                }
            }
            case BYTE -> {
                final byte[] a = (byte[]) in;
                final byte[] b = (byte[]) inout;
                for (int i = 0; i < n; i++) {
                    b[inoutOffset + i] = (byte) integral(a[inOffset + i], b[inoutOffset + i], type);
                }
            }
            case CHAR -> {
                final char[] a = (char[]) in;
                final char[] b = (char[]) inout;
                for (int i = 0; i < n; i++) {
                    b[inoutOffset + i] = (char) integral(a[inOffset + i], b[inoutOffset + i], type);
                }
            }
            case OBJECT -> throw notFor(Kind.OBJECT);
            case BOOLEAN -> {
                final boolean[] a = (boolean[]) in;
                final boolean[] b = (boolean[]) inout;
                for (int i = 0; i < n; i++) {
                    b[inoutOffset + i] = integral(a[inOffset + i] ? 1 : 0, b[inoutOffset + i] ? 1 : 0, type) != 0;
                }
            }
        }
    }

    private void doubles(final double[] a, final int ao, final double[] b, final int bo, final int n)
            throws MPIException {
        switch (predefined) {
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] += a[ao + i];
                }
            }
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] = Math.max(a[ao + i], b[bo + i]);
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] = Math.min(a[ao + i], b[bo + i]);
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] *= a[ao + i];
                }
            }
            default -> throw notFor(Kind.DOUBLE);
        }
    }

    private void ints(final int[] a, final int ao, final int[] b, final int bo, final int n, final Datatype type)
            throws MPIException {
        if (predefined == Predefined.SUM) {
            for (int i = 0; i < n; i++) {
                b[bo + i] += a[ao + i];
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            b[bo + i] = (int) integral(a[ao + i], b[bo + i], type);
        }
    }

    private double real(final double a, final double b, final Datatype type) throws MPIException {
        return switch (predefined) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            default -> throw notFor(type.kind);
        };
    }

    private long integral(final long a, final long b, final Datatype type) throws MPIException {
        final boolean bool = type.kind == Kind.BOOLEAN;
        return switch (predefined) {
            case SUM -> {
                if (bool) {
                    throw notFor(type.kind);
                }
                yield a + b;
            }
            case PROD -> {
                if (bool) {
                    throw notFor(type.kind);
                }
                yield a * b;
            }
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case LAND -> (a != 0 && b != 0) ? 1 : 0;
            case LOR -> (a != 0 || b != 0) ? 1 : 0;
            case LXOR -> ((a != 0) != (b != 0)) ? 1 : 0;
            case BAND -> a & b;
            case BOR -> a | b;
            case BXOR -> a ^ b;
            default -> throw notFor(type.kind);
        };
    }

    /** MAXLOC / MINLOC over (value, index) pairs: the better value, and on a tie the smaller index. */
    private static void pairs(
            final Object in,
            final int ao,
            final Object inout,
            final int bo,
            final int n,
            final Kind kind,
            final boolean max)
            throws MPIException {
        final boolean real = kind == Kind.FLOAT || kind == Kind.DOUBLE;
        for (int i = 0; i < n; i += 2) {
            final int cmp = real
                    ? Double.compare(value(in, ao + i, kind), value(inout, bo + i, kind))
                    : Long.compare(integral(in, ao + i, kind), integral(inout, bo + i, kind));
            final boolean lowerIndex = real
                    ? value(in, ao + i + 1, kind) < value(inout, bo + i + 1, kind)
                    : integral(in, ao + i + 1, kind) < integral(inout, bo + i + 1, kind);
            final boolean takeA = cmp == 0 ? lowerIndex : (max ? cmp > 0 : cmp < 0);
            if (takeA) {
                System.arraycopy(in, ao + i, inout, bo + i, 2);
            }
        }
    }

    /** An integral pair element, exactly (a long does not fit a double's 53 bits). */
    private static long integral(final Object array, final int i, final Kind kind) throws MPIException {
        return switch (kind) {
            case INT -> ((int[]) array)[i];
            case LONG -> ((long[]) array)[i];
            case SHORT -> ((short[]) array)[i];
            default ->
                throw new MPIException("MAXLOC and MINLOC take the pair types SHORT2, INT2, LONG2, FLOAT2,"
                        + " DOUBLE2, not " + kind + " pairs");
        };
    }

    /** A real pair element. */
    private static double value(final Object array, final int i, final Kind kind) {
        return kind == Kind.DOUBLE ? ((double[]) array)[i] : ((float[]) array)[i];
    }

    private MPIException notFor(final Kind kind) {
        return new MPIException("MPI." + predefined + " is not defined on " + kind + " data");
    }

    @Override
    public String toString() {
        return predefined != null ? "MPI." + predefined : "Op(" + function + ")";
    }
}
