/**
 * The mpiJava 1.2 API (package {@code mpi}), as MPJ Express implements it, so that MPI programs written in Java
 * compile against it unchanged; the fabric that connects the ranks of a job ({@code org.troupe.mpi.fabric}); and the
 * launcher, {@code bin/mpjrun} ({@code org.troupe.mpi.run}).
 */
module org.troupe.mpi {
    requires transitive org.troupe.groups;
    // mpjrun -dev jvm gives the ranks' JVMs the options its own was given.
    requires java.management;
    // mpjrun -dev threads warns of a class whose exit calls it cannot rewrite.
    requires org.slf4j;

    exports mpi;
    exports org.troupe.mpi.fabric;
    exports org.troupe.mpi.run;
}
