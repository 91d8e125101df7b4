package mpi;

/**
 * A failed MPI call: a wrong argument, a message that does not fit, a job aborted by another rank. Unchecked, as in
 * MPJ Express, so that programs compile whether or not they declare it; mpiJava programs that declare or catch it
 * compile too.
 */
public class MPIException extends RuntimeException {
    public MPIException() {
        super();
    }

    public MPIException(final Throwable cause) {
        super(cause);
    }

    public MPIException(final String message) {
        super(message);
    }

    public MPIException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
