package org.troupe.mpi.fabric;

/**
 * A failure the fabric reports to a rank: a message that does not fit, a job that was aborted. The {@code mpi}
 * classes, loaded once per rank, turn it into their {@code MPIException}.
 */
public final class FabricException extends RuntimeException {
    public FabricException(final String message) {
        super(message);
    }
}
