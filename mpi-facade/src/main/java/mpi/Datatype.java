package mpi;

import org.troupe.mpi.fabric.Kind;

/**
 * The type of the elements of a buffer, a Java array of one primitive type: the basic types ({@link MPI#INT},
 * {@link MPI#DOUBLE}, ...), the pairs of {@code MAXLOC} and {@code MINLOC} ({@link MPI#DOUBLE2}, ...), and
 * contiguous runs of them. Counts and offsets are in elements of the array, as in mpiJava.
 */
public class Datatype {
    final Kind kind;
    /** Array elements per item of this type. */
    final int elements;
    private final String name;

    Datatype(final Kind kind, final int elements, final String name) {
        this.kind = kind;
        this.elements = elements;
        this.name = name;
    }

    /** {@code count} items of {@code oldtype} one after the other. */
    public static Datatype Contiguous(final int count, final Datatype oldtype) throws MPIException {
        if (oldtype == null) {
            throw new MPIException("Contiguous: the old datatype is null");
        }
        if (count < 0) {
            throw new MPIException("Contiguous: count " + count + " is negative");
        }
        return new Datatype(oldtype.kind, count * oldtype.elements, "Contiguous(" + count + ", " + oldtype + ")");
    }

    /** Bytes of data in one item. */
    public int Size() {
        return elements * kind.bytes();
    }

    /** The span of one item, in array elements. */
    public int Extent() {
        return elements;
    }

    public int Lb() {
        return 0;
    }

    public int Ub() {
        return elements;
    }

    /** Nothing to prepare: a type is usable as soon as it is made. */
    public void Commit() {
    }

    public void Free() {
    }

    @Override
    public String toString() {
        return name;
    }
}
