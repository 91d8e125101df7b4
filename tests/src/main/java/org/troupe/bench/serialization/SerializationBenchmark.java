package org.troupe.bench.serialization;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.troupe.bench.BenchFailure;

/**
 * The JMH form of the suite: one (case, impl) per trial, given as parameters by {@link SerializationSuite}, which
 * passes only the pairs that apply. The annotations hold the same settings as {@code Jmh.defaults()}, so the class
 * can also be run by JMH directly.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgs = {"-Xss16m", "-Xms2g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class SerializationBenchmark {
    @Param("small-request")
    public String caseName;

    @Param("troupe")
    public String implName;

    private BoundCodec codec;

    @Setup
    public void setUp() throws BenchFailure {
        // Checked again in the fork: the figures below must come from a codec that round-trips here too.
        codec = Prepared.of(Cases.byName(caseName), Impls.byName(implName)).codec();
    }

    @Benchmark
    public int write() throws Exception {
        return codec.write();
    }

    @Benchmark
    public Object read() throws Exception {
        return codec.read();
    }
}
