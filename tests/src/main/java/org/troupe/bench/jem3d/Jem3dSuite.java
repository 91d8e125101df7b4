package org.troupe.bench.jem3d;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.troupe.apps.jem3d.Division;
import org.troupe.apps.jem3d.Jem3dOptions;
import org.troupe.apps.jem3d.Jem3dReport;
import org.troupe.apps.jem3d.Jem3dRun;
import org.troupe.apps.jem3d.Mesh;
import org.troupe.bench.BenchFailure;
import org.troupe.bench.ResultSink;
import org.troupe.bench.Suite;
import org.troupe.core.CoreConfig;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;

/**
 * Jem3D's time loop, through {@link Jem3dRun} as an application runs it, on node JVMs of
 * {@code descriptors/local.xml}:
 * <ul>
 *   <li>case {@code scaling} prints three figures: {@code seq} at m = 41 and at m = 61 (one subdomain, division
 *       1x1x1, on the one node JVM of a {@code jvms=1} deployment) and {@code par2} at m = 61 (the best division
 *       into 2 subdomains, on the two node JVMs of a {@code jvms=2} deployment). {@code par2}'s efficiency is its
 *       median rate over twice the median rate of {@code seq} at m = 61 measured in the same invocation; a
 *       {@code seq} figure's efficiency is 1 by definition. The rate is tetrahedra x steps / seconds of the time loop
 *       ({@link Jem3dReport#tetStepsPerSecond()}: deployment and set-up excluded), the heap is
 *       {@link Jem3dReport#heapBytesPerTet()}. Both deployments stay up for the whole case. Each warms up in the
 *       JVMs it is measured in: a long run on a small mesh (see {@link Settings}), then one run of each
 *       configuration; then the three alternate run by run (seq m = 61 and par2 side by side, in turn first), and
 *       the figure is the median run, with the slowest beside it. The CPU that other processes took meanwhile is
 *       measured ({@link CpuElsewhere}): with two cores, a build beside the benchmark makes par2 wait at every
 *       exchange, and stderr warns when that happened;</li>
 *   <li>case {@code border}: see {@link BorderMessage};</li>
 *   <li>case {@code recovery}: see {@link RecoveryBench}.</li>
 * </ul>
 */
public final class Jem3dSuite implements Suite {
    static final String SCALING = "scaling";
    static final String BORDER = "border";
    static final String RECOVERY = "recovery";
    private static final int SMALL = 41;
    private static final int LARGE = 61;
    private static final int WARM = 21;
    private static final Duration WAIT = Duration.ofMinutes(2);
    /** Other processes using more cores than this during a run make its figure suspect (warned on stderr). */
    private static final double CONTENDED = 0.1;

    /**
     * Measured runs per configuration, the steps of each run, and the steps of the first warm-up run of each
     * deployment, on the small {@value #WARM} mesh. That run is cheap per step, so it makes enough steps (thousands
     * of calls and border messages) for the JIT to compile the middleware's per-message path in the node JVMs: after
     * a single m=61 warm-up run of 40 steps, par2 ran up to 20% slower than after this one. Each configuration
     * then makes one warm-up run of its own before the measured ones.
     */
    private record Settings(int runs, int stepsSmall, int stepsLarge, int warmSteps) {}

    /**
     * Quick: on an idle 2-core machine a seq m=41 run loops for about 0.6 s, seq m=61 for about 3 s and par2 for
     * about 1.5 s, each m=61 run spending 1-2 s more on set-up; the case takes about 35 s with its deployments, the
     * whole quick suite about 45 s.
     */
    private static final Settings QUICK = new Settings(3, 100, 100, 1500);

    private static final Settings FULL = new Settings(7, 300, 160, 3000);

    /** One measured configuration: which case, which mesh and division, on which nodes. */
    private record Config(String caseName, Mesh mesh, int[] division, List<Node> nodes, int steps) {
        String label() {
            return caseName + " m=" + mesh.m1();
        }
    }

    @Override
    public String name() {
        return "jem3d";
    }

    @Override
    public String summary() {
        return "Jem3D's time loop (scaling: seq m=41 and m=61, par2 m=61), one border message (border: "
                + "array vs list), and checkpoints and a lost node (recovery: overhead, seconds to step again)";
    }

    @Override
    public List<String> cases() {
        return List.of(SCALING, BORDER, RECOVERY);
    }

    @Override
    public void run(final boolean quick, final List<String> cases, final ResultSink sink) throws BenchFailure {
        for (String caseName : cases) {
            switch (caseName) {
                case SCALING -> scaling(quick ? QUICK : FULL, sink);
                case BORDER -> {
                    CpuElsewhere elsewhere =
                            CpuElsewhere.start(List.of(ProcessHandle.current().pid()));
                    List<BorderFigure> figures = new BorderMessage().measure(quick);
                    System.err.printf(
                            Locale.ROOT,
                            "jem3d: border: other processes used %.2f cores meanwhile%n",
                            elsewhere.cores());
                    for (BorderFigure f : figures) {
                        sink.accept(f);
                    }
                }
                case RECOVERY ->
                    sink.accept(new RecoveryBench(
                                    Path.of(System.getProperty("troupe.home", "."), "descriptors", "local.xml"), quick)
                            .measure());
                default -> throw new BenchFailure("no case " + caseName);
            }
        }
    }

    private static void scaling(final Settings settings, final ResultSink sink) throws BenchFailure {
        Path descriptor = Path.of(System.getProperty("troupe.home", "."), "descriptors", "local.xml");
        TroupeRuntime runtime = TroupeRuntime.start(CoreConfig.fromSettings());
        Deployment one = null;
        Deployment two = null;
        try {
            one = Deployment.load(descriptor, Map.of("jvms", "1", "vn", Jem3dRun.VIRTUAL_NODE))
                    .start();
            two = Deployment.load(descriptor, Map.of("jvms", "2", "vn", Jem3dRun.VIRTUAL_NODE))
                    .start();
            List<Node> single = nodes(one, 1);
            List<Node> pair = nodes(two, 2);
            if (pair.get(0).runtimeId().equals(pair.get(1).runtimeId())) {
                throw new BenchFailure("the two nodes of the jvms=2 deployment are in one JVM");
            }
            List<Long> ours = new ArrayList<>(List.of(ProcessHandle.current().pid()));
            for (Node n : concat(single, pair)) {
                ours.add(TroupeRuntime.pidOf(n.runtimeId()));
            }
            Mesh small = new Mesh(SMALL, SMALL, SMALL);
            Mesh large = new Mesh(LARGE, LARGE, LARGE);
            List<Config> configs = List.of(
                    new Config("seq", small, new int[] {1, 1, 1}, single, settings.stepsSmall()),
                    new Config("seq", large, new int[] {1, 1, 1}, single, settings.stepsLarge()),
                    new Config("par2", large, Division.best(large, 2), pair, settings.stepsLarge()));
            Mesh warm = new Mesh(WARM, WARM, WARM);
            List<Config> warmUps = new ArrayList<>(List.of(
                    new Config("seq", warm, new int[] {1, 1, 1}, single, settings.warmSteps()),
                    new Config("par2", warm, Division.best(warm, 2), pair, settings.warmSteps())));
            warmUps.addAll(configs);
            for (Config c : warmUps) {
                CpuElsewhere elsewhere = CpuElsewhere.start(ours);
                Jem3dReport report = once(c, descriptor, true);
                System.err.printf(Locale.ROOT, "jem3d: warm-up %s: %s%n", c.label(), describe(report, elsewhere));
            }
            int runs = settings.runs();
            double[][] rates = new double[configs.size()][runs];
            double[] heap = new double[configs.size()];
            double[] busiest = new double[configs.size()];
            for (int r = 0; r < runs; r++) {
                // seq m=61 and par2 side by side, in turn first, so that drift does not favour one
                int[] order = r % 2 == 0 ? new int[] {0, 1, 2} : new int[] {0, 2, 1};
                for (int i : order) {
                    CpuElsewhere elsewhere = CpuElsewhere.start(ours);
                    Jem3dReport report = once(configs.get(i), descriptor, false);
                    rates[i][r] = report.tetStepsPerSecond();
                    heap[i] = report.heapBytesPerTet();
                    busiest[i] = Math.max(busiest[i], elsewhere.cores()); // NaN sticks: unknown
                    System.err.printf(
                            Locale.ROOT,
                            "jem3d: run %d/%d %s: %s%n",
                            r + 1,
                            runs,
                            configs.get(i).label(),
                            describe(report, elsewhere));
                }
            }
            double seqLarge = median(rates[1]);
            for (int i = 0; i < configs.size(); i++) {
                Config c = configs.get(i);
                double efficiency = c.caseName().equals("seq")
                        ? 1.0
                        : median(rates[i]) / (c.nodes().size() * seqLarge);
                if (busiest[i] > CONTENDED) {
                    System.err.printf(
                            Locale.ROOT,
                            "jem3d: warning: other processes used up to %.2f cores during "
                                    + "the %s runs; their figures are likely low (par2 the most)%n",
                            busiest[i],
                            c.label());
                }
                sink.accept(new RunFigure(
                        c.caseName(),
                        c.mesh().m1(),
                        median(rates[i]),
                        efficiency,
                        heap[i],
                        runs,
                        Arrays.stream(rates[i]).min().orElseThrow(),
                        c.steps(),
                        c.division()[0] * c.division()[1] * c.division()[2],
                        busiest[i]));
            }
        } catch (BenchFailure e) {
            throw e;
        } catch (Exception e) {
            throw new BenchFailure(SCALING + ": " + e, e);
        } finally {
            close(two);
            close(one);
            runtime.shutdown();
        }
    }

    private static List<Node> nodes(final Deployment d, final int wanted) throws BenchFailure {
        List<Node> nodes = d.virtualNode(Jem3dRun.VIRTUAL_NODE).waitForNodes(wanted, WAIT);
        if (nodes.size() < wanted) {
            throw new BenchFailure(
                    "the jvms=" + wanted + " deployment gave " + nodes.size() + " nodes: " + d.failures());
        }
        return List.copyOf(nodes.subList(0, wanted));
    }

    private static Jem3dReport once(final Config c, final Path descriptor, final boolean verbose) throws BenchFailure {
        // the solver and its messages alone: the recovery case measures what checkpoints add
        Jem3dOptions options = Jem3dOptions.defaults(descriptor)
                .withMesh(c.mesh())
                .withSteps(c.steps())
                .withCheckpoints(0, null);
        Jem3dRun.Listener listener = new Jem3dRun.Listener() {
            @Override
            public void info(final String line) {
                if (verbose) {
                    System.err.println("jem3d: " + line);
                }
            }
        };
        Jem3dReport report = new Jem3dRun(options, listener)
                .run(new Jem3dRun.Placement(
                        c.nodes(),
                        c.mesh(),
                        c.division(),
                        "bench: " + c.label() + " on " + c.nodes().size() + " node JVM(s)"));
        if (report.steps() != c.steps() || !(report.seconds() > 0) || !Double.isFinite(report.energyDrift())) {
            throw new BenchFailure(c.label() + ": the run made " + report.steps() + " of " + c.steps() + " steps in "
                    + report.seconds() + " s with a relative energy drift of " + report.energyDrift());
        }
        return report;
    }

    private static String describe(final Jem3dReport r, final CpuElsewhere elsewhere) {
        return String.format(
                Locale.ROOT,
                "%.3e tet-steps/s, %d steps in %.2f s, %.1f B/tet, drift %.1e; other " + "processes used %.2f cores",
                r.tetStepsPerSecond(),
                r.steps(),
                r.seconds(),
                r.heapBytesPerTet(),
                r.energyDrift(),
                elsewhere.cores());
    }

    private static List<Node> concat(final List<Node> a, final List<Node> b) {
        List<Node> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static void close(final Deployment d) {
        if (d != null) {
            try {
                d.close();
            } catch (RuntimeException e) {
                System.err.println("jem3d: closing deployment " + d.id() + ": " + e);
            }
        }
    }

    static double median(final double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
