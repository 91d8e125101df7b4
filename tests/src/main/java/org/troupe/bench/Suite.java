package org.troupe.bench;

import java.util.List;

/**
 * One family of benchmarks that {@code bin/bench <name>} runs. A suite prints nothing itself: it hands each figure
 * to the {@link ResultSink}, which owns stdout.
 */
public interface Suite {
    /** The name on the command line, e.g. {@code serialization}. */
    String name();

    /** One line for the usage text. */
    String summary();

    /** The names of the suite's cases, in the order they run; each can run on its own ({@code --case}). */
    List<String> cases();

    /**
     * Runs the given cases in this JVM.
     *
     * @param quick the warmed in-process harness instead of JMH forks
     * @param cases names from {@link #cases()}, in the order to run them
     * @throws BenchFailure when a benchmark cannot give a trustworthy figure (e.g. a round trip is wrong)
     */
    void run(boolean quick, List<String> cases, ResultSink sink) throws BenchFailure;
}
