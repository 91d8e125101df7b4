package org.troupe.bench.serialization;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.Options;
import org.troupe.bench.BenchFailure;
import org.troupe.bench.Jmh;
import org.troupe.bench.Measurement;
import org.troupe.bench.QuickHarness;
import org.troupe.bench.ResultSink;
import org.troupe.bench.Suite;

/**
 * Write and read of each {@link Cases case} by each {@link Impls implementation} that applies to it.
 *
 * <p>Every pair is first proven to round-trip (see {@link Prepared}); a pair that does not stops the suite before
 * anything is measured, so no figure is ever printed for a codec that gets the data wrong.
 */
public final class SerializationSuite implements Suite {
    private static final String NAME = "serialization";
    private static final List<String> OPS = List.of("write", "read");

    /**
     * Quick mode per case JVM: all tasks warm up first, 0.2 s each, then 7 rounds of 50 ms batches; over the
     * 62 (case, impl, op) tasks that is about 35 s, plus about a second per case JVM.
     */
    private static final long QUICK_WARMUP_NANOS = 200_000_000L;

    private static final long QUICK_BATCH_NANOS = 50_000_000L;
    private static final int QUICK_BATCHES = 7;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "write/read of arrays, lists, trees and a request: troupe vs Kryo, Fory, JDK and arraycopy";
    }

    @Override
    public List<String> cases() {
        return Cases.ALL.stream().map(BenchCase::name).toList();
    }

    @Override
    public void run(final boolean quick, final List<String> cases, final ResultSink sink) throws BenchFailure {
        final Map<BenchCase, List<Prepared>> pairs = prepare(cases);
        for (final Map.Entry<BenchCase, List<Prepared>> entry : pairs.entrySet()) {
            if (quick) {
                measureQuick(entry.getValue(), sink);
            } else {
                measureJmh(entry.getKey(), entry.getValue(), sink);
            }
        }
    }

    /** Binds and checks every pair up front: a broken codec fails the run in seconds, not after minutes of JMH. */
    private static Map<BenchCase, List<Prepared>> prepare(final List<String> cases) throws BenchFailure {
        final Map<BenchCase, List<Prepared>> pairs = new LinkedHashMap<>();
        for (final String caseName : cases) {
            final BenchCase benchCase = Cases.byName(caseName);
            final List<Prepared> prepared = new ArrayList<>();
            for (final Impl impl : Impls.ALL) {
                if (impl.appliesTo(benchCase)) {
                    prepared.add(Prepared.of(benchCase, impl));
                }
            }
            pairs.put(benchCase, prepared);
        }
        System.err.println(NAME + ": " + String.join(", ", cases) + ": every implementation round-trips");
        return pairs;
    }

    /** All impls of one case side by side in this JVM, with the write and read of each. */
    private static void measureQuick(final List<Prepared> pairs, final ResultSink sink) throws BenchFailure {
        final List<QuickHarness.Task> tasks = new ArrayList<>();
        for (final Prepared pair : pairs) {
            final BoundCodec codec = pair.codec();
            tasks.add(new QuickHarness.Task(pair.label() + "/write", bh -> bh.consume(codec.write())));
            tasks.add(new QuickHarness.Task(pair.label() + "/read", bh -> bh.consume(codec.read())));
        }
        final String caseName = pairs.getFirst().benchCase().name();
        System.err.println(NAME + ": " + caseName + ": measuring " + tasks.size() + " ops");
        // Start each case from a clean heap, so set-up garbage (or another case's) does not bill this one.
        System.gc();
        final double[] nsPerOp;
        try {
            nsPerOp = new QuickHarness(QUICK_WARMUP_NANOS, QUICK_BATCH_NANOS, QUICK_BATCHES).medianNsPerOp(tasks);
        } catch (final Exception e) {
            throw new BenchFailure(caseName + ": failed while measuring: " + e, e);
        }
        for (int i = 0; i < pairs.size(); i++) {
            for (int o = 0; o < OPS.size(); o++) {
                sink.accept(measurement(pairs.get(i), OPS.get(o), nsPerOp[i * OPS.size() + o]));
            }
        }
    }

    /** One JMH run per case, one fork per (impl, op); figures are the median iteration. */
    private static void measureJmh(final BenchCase benchCase, final List<Prepared> pairs, final ResultSink sink)
            throws BenchFailure {
        final Options options = Jmh.defaults()
                .include(Pattern.quote(SerializationBenchmark.class.getName()) + "\\.(write|read)$")
                .param("caseName", benchCase.name())
                .param("implName", pairs.stream().map(p -> p.impl().name()).toArray(String[]::new))
                .build();
        System.err.println(NAME + ": " + benchCase.name() + ": JMH, " + pairs.size() * OPS.size() + " forks");
        final Map<String, Double> nsPerOp = new HashMap<>();
        for (final RunResult result : Jmh.run(options)) {
            nsPerOp.put(result.getParams().getParam("implName") + "/" + Jmh.method(result), Jmh.medianNsPerOp(result));
        }
        for (final Prepared pair : pairs) {
            for (final String op : OPS) {
                final Double ns = nsPerOp.get(pair.impl().name() + "/" + op);
                if (ns == null) {
                    throw new BenchFailure(pair.label() + "/" + op + ": JMH gave no result");
                }
                sink.accept(measurement(pair, op, ns));
            }
        }
    }

    private static Measurement measurement(final Prepared pair, final String op, final double nsPerOp) {
        return new Measurement(
                NAME,
                pair.benchCase().name(),
                pair.impl().name(),
                op,
                nsPerOp,
                pair.codec().messageBytes());
    }
}
