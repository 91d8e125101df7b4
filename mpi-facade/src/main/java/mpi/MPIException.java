package mpi;

/** A failed MPI call: a wrong argument, a message that does not fit, a job aborted by another rank. */
public class MPIException extends Exception {
    public MPIException(final String message) {
        super(message);
    }

    public MPIException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
