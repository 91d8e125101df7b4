/**
 * The mpiJava 1.2 API (package {@code mpi}) over the Troupe core and groups. Package {@code mpi} has no classes yet,
 * and javac refuses to export an empty package: {@code exports mpi;} comes with its first class.
 */
module org.troupe.mpi {
    requires transitive org.troupe.groups;
}
