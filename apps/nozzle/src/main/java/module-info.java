/** Nozzle, a flow solver written against the MPI facade. No classes yet: nothing to export or open. */
module org.troupe.apps.nozzle {
    requires org.troupe.mpi;
    requires org.troupe.deploy;
}
