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
    public record Task(String label, Op op) {
    }

    private static final String BLACKHOLE_CHALLENGE =
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.";

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
            preTouch = hotSpot == null || Boolean.parseBoolean(hotSpot.getVMOption("AlwaysPreTouch").getValue());
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
        final long[] opsPerBatch = new long[tasks.size()];
        for (int t = 0; t < tasks.size(); t++) {
            opsPerBatch[t] = warmUp(tasks.get(t).op());
        }
        final double[][] samples = new double[tasks.size()][batches];
        for (int b = 0; b < batches; b++) {
            for (int t = 0; t < tasks.size(); t++) {
                samples[t][b] = (double) time(tasks.get(t).op(), opsPerBatch[t]) / opsPerBatch[t];
            }
        }
        final double[] medians = new double[tasks.size()];
        for (int t = 0; t < tasks.size(); t++) {
            medians[t] = median(samples[t]);
        }
        return medians;
    }

    /** Runs {@code op} in doubling chunks for the warm-up time; returns the ops that make one batch. */
    private long warmUp(final Op op) throws Exception {
        long chunk = 1;
        long spent = 0;
        double nsPerOp;
        while (true) {
            final long elapsed = time(op, chunk);
            spent += elapsed;
            nsPerOp = Math.max(1.0, (double) elapsed / chunk);
            if (spent >= warmupNanos) {
                break;
            }
            // Grow while a chunk is short, so the estimate comes from a chunk long enough to trust.
            if (elapsed < warmupNanos / 8) {
                chunk *= 2;
            }
        }
        return Math.max(1, Math.round(batchNanos / nsPerOp));
    }

    private long time(final Op op, final long count) throws Exception {
        final Blackhole bh = blackhole;
        final long start = System.nanoTime();
        for (long i = 0; i < count; i++) {
            op.run(bh);
        }
        return System.nanoTime() - start;
    }

    private static double median(final double[] values) {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
