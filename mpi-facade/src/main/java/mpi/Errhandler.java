package mpi;

/**
 * What a communicator does with an error of its calls: {@link MPI#ERRORS_ARE_FATAL} (every communicator's at first)
 * or {@link MPI#ERRORS_RETURN}. In Java the call throws an {@link MPIException} under either: the program may catch
 * it; uncaught, it ends the rank, which fails and aborts the job, as a fatal error would.
 */
public class Errhandler {
    private final String name;

    Errhandler(final String name) {
        this.name = name;
    }

    @Override
    public String toString() {
        return name;
    }
}
