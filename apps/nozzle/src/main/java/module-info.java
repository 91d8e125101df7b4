/** Nozzle, a flow solver written against the MPI facade's {@code mpi} API. */
module org.troupe.apps.nozzle {
    requires org.troupe.mpi;
    requires org.troupe.deploy;

    exports org.troupe.apps.nozzle;
}
