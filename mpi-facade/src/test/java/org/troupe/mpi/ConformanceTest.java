package org.troupe.mpi;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.troupe.mpi.conformance.Collectives;
import org.troupe.mpi.conformance.Datatypes;
import org.troupe.mpi.conformance.Intercomms;
import org.troupe.mpi.conformance.MpjExpressApi;
import org.troupe.mpi.conformance.Objects;
import org.troupe.mpi.conformance.PointToPoint;
import org.troupe.mpi.conformance.Topologies;

/** The conformance programs as jobs of threads, 1 to 8 ranks. */
class ConformanceTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void pointToPoint(final int np) throws InterruptedException {
        MpiJobs.runOk(np, PointToPoint.class);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void collectives(final int np) throws InterruptedException {
        MpiJobs.runOk(np, Collectives.class);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3})
    void datatypes(final int np) throws InterruptedException {
        MpiJobs.runOk(np, Datatypes.class);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3})
    void objects(final int np) throws InterruptedException {
        MpiJobs.runOk(np, Objects.class);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 5, 8})
    void intercommunicators(final int np) throws InterruptedException {
        MpiJobs.runOk(np, Intercomms.class);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 6, 8})
    void topologies(final int np) throws InterruptedException {
        MpiJobs.runOk(np, Topologies.class);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4})
    void mpjExpressApi(final int np) throws InterruptedException {
        MpiJobs.runOk(np, MpjExpressApi.class);
    }
}
