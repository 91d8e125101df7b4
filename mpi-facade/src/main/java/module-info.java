/**
 * The mpiJava 1.2 API (package {@code mpi}), as MPJ Express implements it, so that MPI programs written in Java
 * compile against it unchanged; the fabric that connects the ranks of a job ({@code org.troupe.mpi.fabric}); and the
 * launcher, {@code bin/mpjrun} ({@code org.troupe.mpi.run}).
 */
module org.troupe.mpi {
    requires transitive org.troupe.groups;
    // mpjrun -descriptor runs the ranks in the JVMs a deployment descriptor starts.
    requires org.troupe.deploy;
    // mpjrun -dev jvm gives the ranks' JVMs the options its own was given.
    requires java.management;
    // A deployed rank learns the status of a System.exit from the JDK's log of it.
    requires java.logging;
    // Logging: a class whose exit calls mpjrun cannot rewrite, a deployed rank that cannot start.
    requires org.slf4j;
    // mpjrun prints what the ranks are blocked in on kill -USR1 (sun.misc.Signal).
    requires jdk.unsupported;

    exports mpi;
    exports org.troupe.mpi.fabric;
    exports org.troupe.mpi.fabric.coll;
    exports org.troupe.mpi.run;
}
