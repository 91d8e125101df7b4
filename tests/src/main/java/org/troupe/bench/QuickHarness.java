package org.troupe.bench;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The {@code --quick} measuring loop: JMH's method within one JVM ({@link QuickForks} gives each case a JVM of its
 * own), so a whole suite fits in about a minute.
 *
 * <p>Each task is warmed until it has run for the warm-up time (long enough for C2 on every op measured here),
 * which also gives a first estimate of its cost; the batch size is then chosen so that a batch lasts about the
 * batch time. The tasks of one call are then timed round-robin, one batch each per round, so slow drift (GC, heap
 * growth, CPU frequency, a neighbour's load) spreads evenly over them instead of favouring whichever ran first.
 * The figure is the median batch, which ignores the odd batch that a GC or a late compilation hit.
 *
 * <p>{@link #measure} also gives the spread of single ops: each round then runs one sampling batch of every task
 * too, which reads the clock after every op, and p50 and p99 are taken over the ops of all sampling batches
 * pooled. The clock is read in batches of its own so that its cost, about 20 ns (one {@link System#nanoTime()} per
 * op, on a TSC clock), stays out of the mean. Every single-op time includes it: small beside ops of a few hundred
 * ns and more, not beside the serialization suite's tens of ns, which is why that suite keeps
 * {@link #medianNsPerOp}.
 *
 * <p>Results are consumed by a JMH {@link Blackhole}, as in JMH, so that the JIT cannot drop the work. Unlike JMH,
 * the tasks share one JVM and one timing loop, so the call to {@link Op#run(Blackhole)} is megamorphic: each op
 * pays one virtual call (a few ns), the same for every implementation; and implementations built on the same
 * library (troupe on Kryo) share JIT profiles. JMH mode has neither.
 */
public final class QuickHarness {
    /** One operation to time; it hands its result to the blackhole (as a primitive where it has one, unboxed). */
    @FunctionalInterface
    public interface Op {
        void run(Blackhole blackhole) throws Exception;
    }

    /** An operation with a name for progress messages. */
    public record Task(String label, Op op) {}

    /**
     * What {@link #measure} finds for one task, in ns per op: the median over the timed batches of each batch's
     * mean, and the median and 99th percentile (nearest rank) of single ops over all sampling batches.
     */
    public record Timing(double nsPerOp, double p50Ns, double p99Ns) {
        /** The same figures per call, for an op that makes {@code calls} calls. */
        public Timing perCall(final int calls) {
            return new Timing(nsPerOp / calls, p50Ns / calls, p99Ns / calls);
        }
    }

    private static final String BLACKHOLE_CHALLENGE =
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.";

    /**
     * Single-op times kept per task at most (32 MiB), so that an op of a few ns cannot fill the heap; a sampling
     * batch is cut short to fit. The core suite's ops stay well under it.
     */
    private static final int MAX_SAMPLES_PER_TASK = 1 << 22;
    /**
     * Single-op times taken per task at least, so that the p99 is not merely the slowest op or two; a sampling
     * batch of an op of several ms (a burst of RMI calls) is lengthened to reach it.
     */
    private static final int MIN_SAMPLES_PER_TASK = 200;
    /** Scratch for the sampling loop's warm-up, whose times are thrown away. */
    private static final int WARMUP_SAMPLES = 1 << 14;

    private final long warmupNanos;
    private final long batchNanos;
    private final int batches;
    private final Blackhole blackhole = new Blackhole(BLACKHOLE_CHALLENGE);

    public QuickHarness(final long warmupNanos, final long batchNanos, final int batches) {
        if (warmupNanos <= 0 || batchNanos <= 0 || batches <= 0) {
            throw new IllegalArgumentException("warmup, batch time and batch count must be positive");
        }
        this.warmupNanos = warmupNanos;
        this.batchNanos = batchNanos;
        this.batches = batches;
    }

    /**
     * Warns on stderr about settings of this JVM that distort in-process figures. Without
     * {@code -XX:+AlwaysPreTouch}, ops that allocate much are billed for the first touch of each new heap page,
     * which on virtual machines can cost more than the op itself.
     */
    public static void warnAboutJvmSettings() {
        final HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        final boolean preTouch;
        try {
            preTouch = hotSpot == null
                    || Boolean.parseBoolean(
                            hotSpot.getVMOption("AlwaysPreTouch").getValue());
        } catch (final IllegalArgumentException notHotSpot) {
            return;
        }
        if (!preTouch) {
            System.err.println("bench: warning: this JVM runs without -XX:+AlwaysPreTouch; figures of ops that "
                    + "allocate much (large reads) may include first-touch page faults");
        }
    }

    /** Measures the tasks side by side and returns the median ns per op of each, in the order given. */
    public double[] medianNsPerOp(final List<Task> tasks) throws Exception {
        final Timing[] timings = rounds(tasks, 0);
        final double[] medians = new double[timings.length];
        for (int t = 0; t < timings.length; t++) {
            medians[t] = timings[t].nsPerOp();
        }
        return medians;
    }

    /**
     * Measures the tasks side by side as {@link #medianNsPerOp} does, and times single ops too, in sampling
     * batches of about {@code sampleBatchNanos} each; returns each task's figures in the order given.
     */
    public Timing[] measure(final List<Task> tasks, final long sampleBatchNanos) throws Exception {
        if (sampleBatchNanos <= 0) {
            throw new IllegalArgumentException("sampling batch time must be positive");
        }
        return rounds(tasks, sampleBatchNanos);
    }

    /** The warm-up and the rounds; without sampling ({@code sampleBatchNanos == 0}) the percentiles are NaN. */
    private Timing[] rounds(final List<Task> tasks, final long sampleBatchNanos) throws Exception {
        final boolean sampling = sampleBatchNanos > 0;
        final int n = tasks.size();
        final long[] opsPerBatch = new long[n];
        final int[] opsPerSample = new int[n];
        final long[][] latencies = new long[n][];
        for (int t = 0; t < n; t++) {
            final double nsPerOp = warmUp(tasks.get(t).op(), sampling);
            opsPerBatch[t] = Math.max(1, Math.round(batchNanos / nsPerOp));
            if (sampling) {
                final long wanted = Math.max(
                        Math.round(sampleBatchNanos / nsPerOp), (MIN_SAMPLES_PER_TASK + batches - 1) / batches);
                opsPerSample[t] = Math.clamp(wanted, 1, MAX_SAMPLES_PER_TASK / batches);
                // Allocated (and zeroed) before any round, so that no round pays for it.
                latencies[t] = new long[opsPerSample[t] * batches];
            }
        }
        final double[][] means = new double[n][batches];
        for (int b = 0; b < batches; b++) {
            for (int t = 0; t < n; t++) {
                means[t][b] = (double) time(tasks.get(t).op(), opsPerBatch[t]) / opsPerBatch[t];
            }
            if (sampling) {
                for (int t = 0; t < n; t++) {
                    sample(tasks.get(t).op(), latencies[t], b * opsPerSample[t], opsPerSample[t]);
                }
            }
        }
        final Timing[] timings = new Timing[n];
        for (int t = 0; t < n; t++) {
            if (sampling) {
                Arrays.sort(latencies[t]);
                timings[t] =
                        new Timing(median(means[t]), percentile(latencies[t], 0.50), percentile(latencies[t], 0.99));
            } else {
                timings[t] = new Timing(median(means[t]), Double.NaN, Double.NaN);
            }
        }
        return timings;
    }

    /**
     * Runs {@code op} in doubling chunks for the warm-up time; returns its estimated ns per op. With sampling,
     * each chunk also goes through the sampling loop, so that C2 has compiled that loop too before it counts.
     */
    private double warmUp(final Op op, final boolean sampling) throws Exception {
        final long[] scratch = sampling ? new long[WARMUP_SAMPLES] : null;
        long chunk = 1;
        long spent = 0;
        double nsPerOp;
        while (true) {
            final long elapsed = time(op, chunk);
            spent += elapsed;
            nsPerOp = Math.max(1.0, (double) elapsed / chunk);
            if (sampling) {
                for (long left = chunk; left > 0; left -= WARMUP_SAMPLES) {
                    spent += sample(op, scratch, 0, (int) Math.min(left, WARMUP_SAMPLES));
                }
            }
            if (spent >= warmupNanos) {
                break;
            }
            // Grow while a chunk is short, so the estimate comes from a chunk long enough to trust.
            if (elapsed < warmupNanos / 8) {
                chunk *= 2;
            }
        }
        return nsPerOp;
    }

    private long time(final Op op, final long count) throws Exception {
        final Blackhole bh = blackhole;
        final long start = System.nanoTime();
        for (long i = 0; i < count; i++) {
            op.run(bh);
        }
        return System.nanoTime() - start;
    }

    /**
     * Runs {@code op} {@code count} times and stores each op's time in {@code into} from {@code from}; returns
     * the time of all. One clock read per op, between two ops, so each time includes one read (about 20 ns).
     */
    private long sample(final Op op, final long[] into, final int from, final int count) throws Exception {
        final Blackhole bh = blackhole;
        final long start = System.nanoTime();
        long before = start;
        for (int i = from, end = from + count; i < end; i++) {
            op.run(bh);
            final long after = System.nanoTime();
            into[i] = after - before;
            before = after;
        }
        return before - start;
    }

    /** The nearest-rank {@code q} quantile of sorted values. */
    private static double percentile(final long[] sorted, final double q) {
        final int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.clamp(i, 0, sorted.length - 1)];
    }

    private static double median(final double[] values) {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
