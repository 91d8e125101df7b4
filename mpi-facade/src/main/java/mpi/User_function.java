package mpi;

/** A user's reduction: combines {@code invec} into {@code inoutvec}, element by element ({@code inout = in op inout}). */
public abstract class User_function {
    /**
     * @param count items of {@code datatype} to combine
     */
    public abstract void Call(
            Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype)
            throws MPIException;
}
