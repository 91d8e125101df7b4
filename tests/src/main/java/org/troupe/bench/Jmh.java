package org.troupe.bench;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/** Runs JMH from a suite: the settings every suite shares, JMH's report on stderr, and results as ns per op. */
public final class Jmh {
    private Jmh() {}

    /**
     * Average time in ns; one fork per benchmark, with a 2 GB heap; 5 x 1 s warm-up and 5 x 1 s measurement, so
     * about 12 s per benchmark with the fork's start.
     */
    public static ChainedOptionsBuilder defaults() {
        return new OptionsBuilder()
                .mode(Mode.AverageTime)
                .timeUnit(TimeUnit.NANOSECONDS)
                .forks(1)
                .warmupIterations(5)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(5)
                .measurementTime(TimeValue.seconds(1))
                .jvmArgs(JvmFlags.forMeasuringJvm("2g").toArray(String[]::new))
                // A benchmark that throws must stop the run, not leave a hole in the figures.
                .shouldFailOnError(true);
    }

    /** Runs the benchmarks, with JMH's progress report on stderr (stdout carries only figures). */
    public static Collection<RunResult> run(final Options options) throws BenchFailure {
        try {
            return new Runner(options, OutputFormatFactory.createFormatInstance(System.err, VerboseMode.NORMAL)).run();
        } catch (final RunnerException e) {
            throw new BenchFailure("JMH failed: " + e.getMessage(), e);
        }
    }

    /** The median of the measured iterations, in ns per op. */
    public static double medianNsPerOp(final RunResult result) throws BenchFailure {
        final Result<?> primary = result.getPrimaryResult();
        if (!"ns/op".equals(primary.getScoreUnit())) {
            throw new BenchFailure("expected ns/op from JMH but got " + primary.getScoreUnit() + " for "
                    + result.getParams().getBenchmark());
        }
        return primary.getStatistics().getPercentile(50);
    }

    /** The benchmark method's name, e.g. {@code write}. */
    public static String method(final RunResult result) {
        final String benchmark = result.getParams().getBenchmark();
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }
}
