package org.troupe.mpi.conformance;

import java.util.Arrays;
import java.util.Objects;
import mpi.MPIException;

/** What a rank program checks: a failed check throws, which fails the rank and so the job. */
final class Check {
    private Check() {}

    static void equal(final Object expected, final Object actual, final String what) {
        if (!Objects.deepEquals(expected, actual)) {
            throw new AssertionError(what + ": expected " + show(expected) + " but got " + show(actual));
        }
    }

    static void that(final boolean condition, final String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    /** Runs {@code call}, which must fail with an MPIException whose message contains {@code words}. */
    static void fails(final Call call, final String words, final String what) {
        try {
            call.run();
        } catch (MPIException e) {
            if (e.getMessage() == null || !e.getMessage().contains(words)) {
                throw new AssertionError(
                        what + ": the MPIException says '" + e.getMessage() + "', not '" + words + "'");
            }
            return;
        }
        throw new AssertionError(what + ": no MPIException");
    }

    interface Call {
        void run() throws MPIException;
    }

    private static String show(final Object o) {
        if (o instanceof int[] a) {
            return Arrays.toString(a);
        }
        if (o instanceof double[] a) {
            return Arrays.toString(a);
        }
        if (o instanceof long[] a) {
            return Arrays.toString(a);
        }
        return String.valueOf(o);
    }
}
