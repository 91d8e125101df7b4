/**
 * Everything an application needs, as one module: {@code requires org.troupe.all;} reads active objects and futures
 * ({@code org.troupe.core}), typed groups ({@code org.troupe.groups}), deployment ({@code org.troupe.deploy}) and the
 * MPI facade ({@code org.troupe.mpi}). It has no code of its own.
 */
module org.troupe.all {
    requires transitive org.troupe.groups;
    requires transitive org.troupe.deploy;
    requires transitive org.troupe.mpi;
}
