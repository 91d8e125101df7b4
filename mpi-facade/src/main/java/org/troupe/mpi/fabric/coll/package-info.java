/**
 * The collective algorithms of the MPI facade, one per class, as Open MPI keeps its own in components of the
 * {@code coll} framework: each is written over {@link org.troupe.mpi.fabric.coll.PointToPoint}, a communicator's
 * sends and receives between its ranks, so that the binding ({@code mpi.Intracomm}) only checks arguments, chooses
 * an algorithm and calls it, and a test runs an algorithm over ranks in memory. Messages, tags and their order are
 * the algorithm's: a binding and a test see the same ones.
 */
package org.troupe.mpi.fabric.coll;
