package mpi;

import java.util.ArrayList;
import java.util.List;
import org.troupe.mpi.fabric.Kind;

/**
 * The type of the items of a buffer, a Java array of one primitive type: the basic types ({@link MPI#INT},
 * {@link MPI#DOUBLE}, ...), the pairs of {@code MAXLOC} and {@code MINLOC} ({@link MPI#DOUBLE2}, ...), and the derived
 * types made of them ({@link #Contiguous}, {@link #Vector}, {@link #Hvector}, {@link #Indexed}, {@link #Hindexed},
 * {@link #Struct}). As in mpiJava, offsets, displacements, strides and extents count elements of the array, and the
 * items of a derived type are all of one basic type. An item is a list of blocks of elements at displacements from
 * the item's start; a message carries only those elements, packed.
 */
public class Datatype {
    /** The element type; null for the {@link MPI#LB} and {@link MPI#UB} markers. */
    final Kind kind;
    /** Elements of data in one item. */
    final int elements;
    /** The blocks of one item: displacement and length, in elements, in type-map order. */
    private final int[] displacements;

    private final int[] lengths;
    private final int lb;
    private final int ub;
    private final String name;

    /** A basic type: {@code elements} consecutive elements. */
    Datatype(final Kind kind, final int elements, final String name) {
        this(kind, new int[] {0}, new int[] {elements}, 0, elements, name);
    }

    private Datatype(
            final Kind kind,
            final int[] displacements,
            final int[] lengths,
            final int lb,
            final int ub,
            final String name) {
        this.kind = kind;
        this.displacements = displacements;
        this.lengths = lengths;
        int n = 0;
        for (final int l : lengths) {
            n += l;
        }
        this.elements = n;
        this.lb = lb;
        this.ub = ub;
        this.name = name;
    }

    /** Single elements of {@code kind}: what a derived type's items are made of. */
    static Datatype elementsOf(final Kind kind) {
        return new Datatype(kind, 1, kind.name());
    }

    /** The {@link MPI#LB} and {@link MPI#UB} markers of {@link #Struct}. */
    static Datatype marker(final String name) {
        return new Datatype(null, new int[0], new int[0], 0, 0, name);
    }

    // --- Derived types ---

    /** {@code count} items of {@code oldtype}, one after the other. */
    public static Datatype Contiguous(final int count, final Datatype oldtype) throws MPIException {
        check(oldtype, count, "Contiguous");
        return strided(count, 1, oldtype.Extent(), oldtype, "Contiguous(" + count + ", " + oldtype + ")");
    }

    /** {@code count} blocks of {@code blocklength} items of {@code oldtype}, their starts {@code stride} items apart. */
    public static Datatype Vector(final int count, final int blocklength, final int stride, final Datatype oldtype)
            throws MPIException {
        check(oldtype, count, "Vector");
        return strided(
                count,
                blocklength,
                stride * oldtype.Extent(),
                oldtype,
                "Vector(" + count + ", " + blocklength + ", " + stride + ", " + oldtype + ")");
    }

    /** As {@link #Vector}, the stride counted in elements of the buffer. */
    public static Datatype Hvector(final int count, final int blocklength, final int stride, final Datatype oldtype)
            throws MPIException {
        check(oldtype, count, "Hvector");
        return strided(
                count,
                blocklength,
                stride,
                oldtype,
                "Hvector(" + count + ", " + blocklength + ", " + stride + ", " + oldtype + ")");
    }

    /** {@code count} blocks of {@code blocklength} items of {@code oldtype}, {@code stride} elements apart. */
    private static Datatype strided(
            final int count, final int blocklength, final int stride, final Datatype oldtype, final String name)
            throws MPIException {
        if (blocklength < 0) {
            throw new MPIException(name + ": block length " + blocklength + " is negative");
        }
        final int[] blocklengths = new int[count];
        final int[] displacements = new int[count];
        for (int i = 0; i < count; i++) {
            blocklengths[i] = blocklength;
            displacements[i] = i * stride;
        }
        return build(blocklengths, displacements, oldtype, name);
    }

    /** Blocks of {@code array_of_blocklengths[i]} items of {@code oldtype} at {@code array_of_displacements[i]} items. */
    public static Datatype Indexed(
            final int[] array_of_blocklengths, final int[] array_of_displacements, final Datatype oldtype)
            throws MPIException {
        checkArrays(array_of_blocklengths, array_of_displacements, "Indexed");
        check(oldtype, 0, "Indexed");
        final int[] displacements = array_of_displacements.clone();
        for (int i = 0; i < displacements.length; i++) {
            displacements[i] *= oldtype.Extent();
        }
        return build(array_of_blocklengths, displacements, oldtype, "Indexed(" + oldtype + ")");
    }

    /** As {@link #Indexed}, the displacements counted in elements of the buffer. */
    public static Datatype Hindexed(
            final int[] array_of_blocklengths, final int[] array_of_displacements, final Datatype oldtype)
            throws MPIException {
        checkArrays(array_of_blocklengths, array_of_displacements, "Hindexed");
        check(oldtype, 0, "Hindexed");
        return build(array_of_blocklengths, array_of_displacements, oldtype, "Hindexed(" + oldtype + ")");
    }

    /**
     * Blocks of {@code array_of_blocklengths[i]} items of {@code array_of_types[i]} at
     * {@code array_of_displacements[i]} elements; the types share one element type, and {@link MPI#LB} and
     * {@link MPI#UB} entries set the bounds of the item.
     */
    public static Datatype Struct(
            final int[] array_of_blocklengths, final int[] array_of_displacements, final Datatype[] array_of_types)
            throws MPIException {
        checkArrays(array_of_blocklengths, array_of_displacements, "Struct");
        if (array_of_types == null || array_of_types.length != array_of_blocklengths.length) {
            throw new MPIException("Struct: one type per block is needed");
        }
        Kind kind = null;
        final Layout layout = new Layout();
        Integer lb = null;
        Integer ub = null;
        for (int i = 0; i < array_of_types.length; i++) {
            final Datatype t = array_of_types[i];
            if (t == null) {
                throw new MPIException("Struct: type " + i + " is null");
            }
            if (t == MPI.LB) {
                lb = lb == null ? array_of_displacements[i] : Math.min(lb, array_of_displacements[i]);
                continue;
            }
            if (t == MPI.UB) {
                ub = ub == null ? array_of_displacements[i] : Math.max(ub, array_of_displacements[i]);
                continue;
            }
            if (t.kind == null) {
                throw new MPIException("Struct: type " + i + " is " + t + ", not a type of data");
            }
            if (kind != null && t.kind != kind) {
                throw new MPIException(
                        "Struct: a Java buffer holds one element type, and the types mix " + kind + " and " + t.kind);
            }
            kind = t.kind;
            layout.add(t, array_of_blocklengths[i], array_of_displacements[i]);
        }
        final boolean empty = layout.blocks.isEmpty();
        return fromBlocks(
                kind != null ? kind : Kind.BYTE, // no data, as MPI allows: any buffer will do (see Transport)
                layout.blocks,
                lb != null ? lb : empty ? 0 : layout.low,
                ub != null ? ub : empty ? 0 : layout.high,
                "Struct");
    }

    private static Datatype build(
            final int[] blocklengths, final int[] displacements, final Datatype oldtype, final String name) {
        final Layout layout = new Layout();
        for (int i = 0; i < blocklengths.length; i++) {
            layout.add(oldtype, blocklengths[i], displacements[i]);
        }
        final boolean empty = layout.blocks.isEmpty();
        return fromBlocks(oldtype.kind, layout.blocks, empty ? 0 : layout.low, empty ? 0 : layout.high, name);
    }

    /** The blocks of a type being made, and the bounds of its items so far. */
    private static final class Layout {
        final List<int[]> blocks = new ArrayList<>();
        int low = Integer.MAX_VALUE;
        int high = Integer.MIN_VALUE;

        /** {@code count} items of {@code t}, one after the other from {@code displacement}. */
        void add(final Datatype t, final int count, final int displacement) {
            for (int j = 0; j < count; j++) {
                final int start = displacement + j * t.Extent();
                for (int b = 0; b < t.displacements.length; b++) {
                    blocks.add(new int[] {start + t.displacements[b], t.lengths[b]});
                }
                low = Math.min(low, start + t.lb);
                high = Math.max(high, start + t.ub);
            }
        }
    }

    /** Joins blocks that follow each other. */
    private static Datatype fromBlocks(
            final Kind kind, final List<int[]> blocks, final int lb, final int ub, final String name) {
        final List<int[]> merged = new ArrayList<>();
        for (final int[] b : blocks) {
            if (b[1] == 0) {
                continue;
            }
            final int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && last[0] + last[1] == b[0]) {
                last[1] += b[1];
            } else {
                merged.add(b.clone());
            }
        }
        final int[] d = new int[merged.size()];
        final int[] l = new int[merged.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = merged.get(i)[0];
            l[i] = merged.get(i)[1];
        }
        return new Datatype(kind, d, l, lb, ub, name);
    }

    private static void check(final Datatype oldtype, final int count, final String call) throws MPIException {
        if (oldtype == null || oldtype.kind == null) {
            throw new MPIException(
                    call + ": the old datatype is " + (oldtype == null ? "null" : oldtype + ", a marker for Struct"));
        }
        if (count < 0) {
            throw new MPIException(call + ": count " + count + " is negative");
        }
    }

    private static void checkArrays(final int[] blocklengths, final int[] displacements, final String call)
            throws MPIException {
        if (blocklengths == null || displacements == null || blocklengths.length != displacements.length) {
            throw new MPIException(call + ": the block lengths and the displacements must be arrays of one length");
        }
        for (final int l : blocklengths) {
            if (l < 0) {
                throw new MPIException(call + ": block length " + l + " is negative");
            }
        }
    }

    // --- Packing ---

    /** Whether an item is its elements, one after the other, and nothing else: it needs no packing. */
    boolean isContiguous() {
        return elements > 0 // a type of no data takes any buffer: packed, it is never copied from or into
                && lb == 0
                && ub == elements
                && (displacements.length == 0 || (displacements.length == 1 && displacements[0] == 0));
    }

    /** The elements of {@code count} items from {@code offset}, packed in a new array. */
    Object pack(final Object buf, final int offset, final int count) {
        final Object packed = kind.newArray(count * elements);
        int at = 0;
        for (int i = 0; i < count; i++) {
            final int item = offset + i * Extent();
            for (int b = 0; b < displacements.length; b++) {
                System.arraycopy(buf, item + displacements[b], packed, at, lengths[b]);
                at += lengths[b];
            }
        }
        return packed;
    }

    /** Spreads the first {@code n} packed elements into items from {@code offset}, in type-map order. */
    void unpack(final Object packed, final int n, final Object buf, final int offset) throws MPIException {
        try {
            spread(packed, n, buf, offset);
        } catch (ArrayStoreException e) {
            throw new MPIException("an object received does not fit in a "
                    + buf.getClass().getSimpleName() + " (" + e.getMessage() + "); receive into an Object[]");
        }
    }

    private void spread(final Object packed, final int n, final Object buf, final int offset) {
        int at = 0;
        for (int i = 0; at < n; i++) {
            final int item = offset + i * Extent();
            for (int b = 0; b < displacements.length && at < n; b++) {
                final int len = Math.min(lengths[b], n - at);
                System.arraycopy(packed, at, buf, item + displacements[b], len);
                at += len;
            }
        }
    }

    /** The lowest and one past the highest element {@code count} items from {@code offset} touch. */
    long[] span(final int offset, final int count) {
        if (count == 0) {
            return new long[] {offset, offset};
        }
        return new long[] {(long) offset + lb, (long) offset + (long) (count - 1) * Extent() + ub};
    }

    // --- mpiJava's queries ---

    /** Elements of data in one item (its size in elements). */
    public int Size() {
        return elements;
    }

    /** The span of one item, upper bound minus lower bound, in elements. */
    public int Extent() {
        return ub - lb;
    }

    public int Lb() {
        return lb;
    }

    public int Ub() {
        return ub;
    }

    /** Nothing to prepare: a type is usable as soon as it is made. */
    public void Commit() {}

    public void Free() {}

    /** {@link #Free}, as MPJ Express spells it. */
    public void free() {}

    @Override
    public String toString() {
        return name;
    }
}
