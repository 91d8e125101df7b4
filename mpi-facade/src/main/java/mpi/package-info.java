/**
 * The mpiJava 1.2 API over the Troupe core and groups, in package {@code mpi} as mpiJava names it, so that MPI
 * programs compile against it unchanged. It has no classes so far; the module fixes its place in the build, above
 * groups.
 */
package mpi;
