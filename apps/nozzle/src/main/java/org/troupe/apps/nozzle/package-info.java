/**
 * Nozzle: steady compressible flow through a converging-diverging nozzle, written as an MPI program against the
 * MPI facade's public {@code mpi} API only ({@code bin/nozzle}, through {@code bin/mpjrun}), validated against the
 * exact quasi-one-dimensional solutions.
 */
package org.troupe.apps.nozzle;
