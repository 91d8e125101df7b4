package org.troupe.bench.deploy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.troupe.bench.BenchFailure;
import org.troupe.bench.JvmFlags;
import org.troupe.bench.ResultSink;
import org.troupe.bench.Suite;
import org.troupe.core.CoreConfig;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;

/**
 * {@code local-4}: four node JVMs on this host, one node each, runs alternating between the two implementations:
 * <ul>
 *   <li>{@code deployment}: {@code descriptors/local.xml} with {@code jvms=4}, {@code vn=workers}: {@code start()}, then
 *       {@code waitForNodes(4)}; release is {@code close()}, which returns once the JVMs have ended;</li>
 *   <li>{@code bare-fork}: four {@code java NodeMain} processes forked directly, then
 *       {@code runtime.awaitNode} for each; release kills them and waits for their end.</li>
 * </ul>
 * The difference is what the deployment adds: the descriptor, the scripts, the secret file, the bookkeeping.
 */
public final class DeploySuite implements Suite {
    static final String LOCAL_4 = "local-4";
    private static final int JVMS = 4;
    private static final Duration WAIT = Duration.ofMinutes(2);

    @Override
    public String name() {
        return "deploy";
    }

    @Override
    public String summary() {
        return "acquiring and releasing 4 local node JVMs: a deployment against bare forks";
    }

    @Override
    public List<String> cases() {
        return List.of(LOCAL_4);
    }

    @Override
    public void run(final boolean quick, final List<String> cases, final ResultSink sink) throws BenchFailure {
        final Path descriptor = Path.of(System.getProperty("troupe.home", "."), "descriptors", "local.xml");
        final TroupeRuntime runtime = TroupeRuntime.start(CoreConfig.fromSettings());
        try {
            final int runs = quick ? 3 : 9;
            final double[][] deployment = new double[2][runs];
            final double[][] bare = new double[2][runs];
            once(descriptor, runtime, new double[2][1], new double[2][1], 0); // warm-up of both paths
            for (int r = 0; r < runs; r++) {
                once(descriptor, runtime, deployment, bare, r);
                System.err.printf(
                        "deploy: run %d/%d: deployment %.0f + %.0f ms, bare fork %.0f + %.0f ms%n",
                        r + 1, runs, deployment[0][r], deployment[1][r], bare[0][r], bare[1][r]);
            }
            sink.accept(figure("deployment", deployment));
            sink.accept(figure("bare-fork", bare));
        } catch (BenchFailure e) {
            throw e;
        } catch (Exception e) {
            throw new BenchFailure(LOCAL_4 + ": " + e, e);
        } finally {
            runtime.shutdown();
        }
    }

    private static void once(
            final Path descriptor,
            final TroupeRuntime runtime,
            final double[][] deployment,
            final double[][] bare,
            final int r)
            throws Exception {
        long t0 = System.nanoTime();
        final Deployment d = Deployment.load(descriptor, Map.of("jvms", String.valueOf(JVMS), "vn", "workers"))
                .start();
        try {
            final int got = d.virtualNode("workers").waitForNodes(JVMS, WAIT).size();
            if (got != JVMS) {
                throw new BenchFailure("the deployment gave " + got + " nodes: " + d.failures());
            }
            deployment[0][r] = millisSince(t0);
        } finally {
            t0 = System.nanoTime();
            d.close();
            deployment[1][r] = millisSince(t0);
        }
        t0 = System.nanoTime();
        final List<Process> forks = new ArrayList<>();
        try {
            for (int i = 0; i < JVMS; i++) {
                // as the deployment's node JVMs: this JVM's flags, local.xml's heap
                final List<String> command = new ArrayList<>(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString()));
                command.addAll(JvmFlags.inherited());
                command.addAll(List.of(
                        "-Xmx512m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        "org.troupe.core.NodeMain",
                        "--parent",
                        runtime.listen(),
                        "--name",
                        "bare-" + r + "-" + i));
                final ProcessBuilder pb = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
                pb.environment().put("TROUPE_CORE_SECRET", runtime.config().secret());
                forks.add(pb.start());
            }
            for (int i = 0; i < JVMS; i++) {
                runtime.awaitNode("bare-" + r + "-" + i, WAIT);
            }
            bare[0][r] = millisSince(t0);
        } finally {
            t0 = System.nanoTime();
            forks.forEach(Process::destroy);
            for (final Process p : forks) {
                p.waitFor(30, TimeUnit.SECONDS);
            }
            bare[1][r] = millisSince(t0);
        }
    }

    private static double millisSince(final long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }

    private static DeployFigure figure(final String impl, final double[][] times) {
        final double[] acquire = times[0].clone();
        final double[] release = times[1].clone();
        Arrays.sort(acquire);
        Arrays.sort(release);
        return new DeployFigure(
                LOCAL_4,
                impl,
                acquire.length,
                acquire[acquire.length / 2],
                acquire[0],
                acquire[acquire.length - 1],
                release[release.length / 2]);
    }
}
