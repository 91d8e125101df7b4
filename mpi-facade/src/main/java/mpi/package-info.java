/**
 * The mpiJava 1.2 API over the Troupe core and groups. Its issue has not landed yet.
 */
package mpi;
