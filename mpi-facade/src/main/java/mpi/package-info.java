/**
 * The mpiJava 1.2 API, as MPJ Express implements it: {@link mpi.MPI} (initialisation, constants, predefined
 * datatypes and operations), communicators ({@link mpi.Comm}, {@link mpi.Intracomm}), {@link mpi.Request},
 * {@link mpi.Status}, {@link mpi.Group}, {@link mpi.Datatype}, {@link mpi.Op} and {@link mpi.MPIException}.
 * Programs run with {@code bin/mpjrun}; see the README.
 */
package mpi;
