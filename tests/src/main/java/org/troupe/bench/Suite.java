package org.troupe.bench;

/**
 * One family of benchmarks that {@code bin/bench <name>} runs. A suite prints nothing itself: it hands each figure
 * to the {@link ResultSink}, which owns stdout.
 */
public interface Suite {
    /** The name on the command line, e.g. {@code serialization}. */
    String name();

    /** One line for the usage text. */
    String summary();

    /**
     * Runs every benchmark of the suite.
     *
     * @param quick the warmed in-process harness (about a minute) instead of JMH forks
     * @throws BenchFailure when a benchmark cannot give a trustworthy figure (e.g. a round trip is wrong)
     */
    void run(boolean quick, ResultSink sink) throws BenchFailure;
}
