/** Nozzle, a flow solver written against the MPI facade's {@code mpi} API. */
module org.troupe.apps.nozzle {
    requires org.troupe.mpi;
    requires org.troupe.deploy;
    // --plot draws with Java 2D and writes PNG with ImageIO.
    requires java.desktop;

    exports org.troupe.apps.nozzle;
}
