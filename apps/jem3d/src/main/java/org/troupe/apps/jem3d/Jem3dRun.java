package org.troupe.apps.jem3d;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.DeploymentFailure;
import org.troupe.deploy.VirtualNode;

/**
 * One Jem3D run on a started deployment: it takes the nodes of virtual node {@code jem3d}, decides what to do with
 * what came ({@link Adapt}), divides the mesh, creates one {@link Subdomain} per block on the nodes and a
 * {@link Collector} here, runs them, and reports. A lost node or a failing subdomain ends the run with a
 * {@link Jem3dException} that names the subdomain; the caller closes the deployment, which stops its JVMs.
 */
public final class Jem3dRun {
    public static final String VIRTUAL_NODE = "jem3d";

    private static final Logger LOG = LoggerFactory.getLogger(Jem3dRun.class);
    private static final long POLL_MILLIS = 100;

    /** What a run tells its user while it goes. */
    public interface Listener {
        /** A decision or a stage, one line: which nodes came, how the mesh is divided and why. */
        default void info(final String line) {}

        /** The run's progress, several times a second while it steps. */
        default void progress(final RunStatus status) {}
    }

    /** The nodes a run takes and the mesh it divides among them, with the reason. */
    public record Placement(List<Node> nodes, Mesh mesh, int[] division, String decision) {}

    private final Jem3dOptions options;
    private final Listener listener;
    private boolean keepFields;
    private boolean keepSlice;
    private volatile Collector collector;
    private volatile boolean stopRequested;
    private volatile Phase phase = Phase.PREPARING;

    /** Where a run is: what a stop request can still do. */
    public enum Phase {
        /** Waiting for nodes or setting up: a stop ends the run without a report. */
        PREPARING,
        /** Stepping: a stop ends every subdomain after the same step, and the run reports. */
        RUNNING,
        /** Over, successfully or not: a stop changes nothing. */
        OVER
    }

    public Jem3dRun(final Jem3dOptions options, final Listener listener) {
        this.options = options;
        this.listener = listener;
    }

    /** Runs on {@code deployment} (started) and returns the report. */
    public Jem3dReport run(final Deployment deployment) {
        VirtualNode vn;
        try {
            vn = deployment.virtualNode(VIRTUAL_NODE);
        } catch (IllegalArgumentException e) {
            throw new Jem3dException("the descriptor has no virtual node '" + VIRTUAL_NODE + "', which Jem3D asks "
                    + "for: " + e.getMessage());
        }
        Placement placement = place(options, vn, listener);
        listener.info(placement.decision());
        if (stopRequested) {
            throw new Jem3dException("stopped before the run started");
        }
        return run(placement);
    }

    /** Makes the report carry every block's final fields ({@link Jem3dReport#fields()}); for checks, small meshes. */
    public Jem3dRun keepFields() {
        keepFields = true;
        return this;
    }

    /** Makes the report carry |E| on the mid-plane in z ({@link Jem3dReport#sliceE()}), for the colour map. */
    public Jem3dRun keepSlice() {
        keepSlice = true;
        return this;
    }

    /** Pauses the run at the end of the current step (no-op before it starts). */
    public void pause() {
        Collector c = collector;
        if (c != null) {
            c.pause();
        }
    }

    public void resume() {
        Collector c = collector;
        if (c != null) {
            c.resume();
        }
    }

    /** Whether {@link #stop()} was called. */
    public boolean stopRequested() {
        return stopRequested;
    }

    /**
     * Ends the run early, after the same step everywhere; {@link #run} then reports the steps made. Before the
     * subdomains start, it makes {@link #run} throw instead, once the nodes are placed or right away.
     *
     * @return where the run was when asked
     */
    public Phase stop() {
        Phase now = phase;
        if (now != Phase.OVER) {
            stopRequested = true;
            Collector c = collector;
            if (c != null) {
                c.stop();
            }
        }
        return now;
    }

    /**
     * Waits for the nodes and applies the adapt policy: which nodes to use, on what mesh, divided how, and why.
     */
    public static Placement place(final Jem3dOptions options, final VirtualNode vn, final Listener listener) {
        int wanted = options.nodes();
        int min = options.effectiveMinNodes();
        Duration timeout = options.timeout();
        List<Node> nodes = vn.waitForNodes(wanted, timeout);
        StringBuilder why = new StringBuilder();
        if (nodes.size() >= wanted) {
            why.append("got the ")
                    .append(wanted)
                    .append(wanted == 1 ? " node" : " nodes")
                    .append(" asked for");
        } else {
            why.append("got ")
                    .append(nodes.size())
                    .append(" of ")
                    .append(wanted)
                    .append(" nodes asked for")
                    .append(vn.isSettled() ? " (no more can come" : " (after " + timeout.toSeconds() + " s")
                    .append(failureNote(vn))
                    .append(")");
            if (options.adapt() == Adapt.WAIT && nodes.size() < min && !vn.isSettled()) {
                listener.info("got " + nodes.size() + " of " + wanted + " nodes; --adapt wait: waiting up to "
                        + timeout.toSeconds() + " s more for at least " + min);
                nodes = vn.waitForNodes(min, timeout);
                why.append("; waited ")
                        .append(timeout.toSeconds())
                        .append(" s more for ")
                        .append(min)
                        .append(" and have ")
                        .append(nodes.size());
            }
        }
        if (nodes.isEmpty()) {
            throw new NotEnoughNodesException("no node of virtual node '" + VIRTUAL_NODE + "' arrived"
                    + (vn.isSettled() ? " (every launch has ended)" : " within " + timeout.toSeconds() + " s")
                    + failureNote(vn) + "; check the descriptor"
                    + (vn.isSettled() ? "" : ", or give more time with " + "--timeout"));
        }
        if (nodes.size() < min) {
            throw new NotEnoughNodesException("only " + nodes.size() + " of the " + min + " nodes required "
                    + "(--min-nodes) arrived" + (vn.isSettled() ? " and no more can come" : "") + failureNote(vn)
                    + "; lower --min-nodes"
                    + (vn.isSettled() ? " or fix the descriptor" : " or give more time with " + "--timeout"));
        }
        nodes = List.copyOf(nodes.subList(0, Math.min(wanted, nodes.size())));
        Mesh mesh = options.mesh();
        if (options.adapt() == Adapt.SHRINK && nodes.size() < wanted) {
            Mesh planned = mesh;
            mesh = shrink(planned, (double) nodes.size() / wanted);
            why.append("; --adapt shrink: mesh ")
                    .append(planned)
                    .append(" -> ")
                    .append(mesh)
                    .append(" to keep each node's planned work (")
                    .append(String.format(Locale.ROOT, "%,d", planned.cellCount() / wanted))
                    .append(" cells per node planned, ")
                    .append(String.format(Locale.ROOT, "%,d", mesh.cellCount() / nodes.size()))
                    .append(" now)");
        }
        int[] division = options.division();
        if (division != null) {
            why.append("; division ")
                    .append(Division.describe(mesh, division))
                    .append(" as given, on ")
                    .append(nodes.size())
                    .append(nodes.size() == 1 ? " node" : " nodes");
        } else {
            int use = nodes.size();
            division = Division.best(mesh, use);
            while (division == null) {
                use--;
                division = Division.best(mesh, use);
            }
            if (use < nodes.size()) {
                why.append("; mesh ")
                        .append(mesh)
                        .append(" cannot be divided into ")
                        .append(nodes.size())
                        .append(" blocks, using ")
                        .append(use)
                        .append(use == 1 ? " node" : " nodes");
                nodes = List.copyOf(nodes.subList(0, use));
            }
            why.append("; division ")
                    .append(Division.describe(mesh, division))
                    .append(use > 1 ? ", the fewest border faces for " + use + " nodes" : "");
        }
        try {
            Block.divide(mesh, division);
        } catch (IllegalArgumentException e) { // a division given for the planned mesh, which shrink made smaller
            throw new Jem3dException(e.getMessage() + " (" + why + ")");
        }
        return new Placement(nodes, mesh, division, why.toString());
    }

    /** The first failure in full, and how many more there are: enough to act on, in one line. */
    private static String failureNote(final VirtualNode vn) {
        List<DeploymentFailure> failures = vn.failures();
        if (failures.isEmpty()) {
            return "";
        }
        return "; " + failures.getFirst()
                + (failures.size() > 1
                        ? " (and " + (failures.size() - 1) + " more " + (failures.size() == 2 ? "failure" : "failures")
                                + ")"
                        : "");
    }

    /** A mesh with about {@code fraction} of the cells, each axis scaled alike (at least one cell per axis). */
    static Mesh shrink(final Mesh mesh, final double fraction) {
        double f = Math.cbrt(fraction);
        int[] m = new int[3];
        for (int d = 0; d < 3; d++) {
            m[d] = Math.max(2, (int) Math.round(mesh.cells(d) * f) + 1);
        }
        return new Mesh(m[0], m[1], m[2]);
    }

    /** Runs on the nodes, mesh and division of {@code placement}: subdomains go to the nodes in turn. */
    public Jem3dReport run(final Placement placement) {
        TroupeRuntime runtime = TroupeRuntime.get();
        Mesh mesh = placement.mesh();
        double dt = mesh.timeStep(options.cfl());
        int steps = options.stepsFor(mesh);
        List<Block> blocks = Block.divide(mesh, placement.division());
        List<Node> nodes = placement.nodes();
        // subdomains go to the nodes in turn
        Node[] home = new Node[blocks.size()];
        Map<String, List<Block>> blocksByRuntime = new ConcurrentHashMap<>();
        for (Block b : blocks) {
            home[b.index()] = nodes.get(b.index() % nodes.size());
            blocksByRuntime
                    .computeIfAbsent(home[b.index()].runtimeId(), k -> new ArrayList<>())
                    .add(b);
        }
        AtomicReference<String> lost = new AtomicReference<>();
        Set<String> lostRuntimes = ConcurrentHashMap.newKeySet();
        Runnable unsubscribe = runtime.onRuntimeLost((runtimeId, reason) -> {
            lostRuntimes.add(runtimeId);
            List<Block> gone = blocksByRuntime.get(runtimeId);
            if (gone != null) {
                lost.compareAndSet(null, describeLoss(gone, runtimeId, reason));
            }
        });
        Subdomain[] subdomains = new Subdomain[blocks.size()];
        Collector c = null;
        try {
            listener.info(String.format(
                    Locale.ROOT,
                    "setting up %d subdomain%s of mesh %s (%,d tetrahedra), %d " + "steps of %.4e",
                    blocks.size(),
                    blocks.size() == 1 ? "" : "s",
                    mesh,
                    mesh.tetrahedra(),
                    steps,
                    dt));
            createAll(blocks, home, subdomains, mesh, dt, steps);
            c = ActiveObjects.newActive(Collector.class, new Object[0], runtime.defaultNode());
            try {
                for (Block b : blocks) {
                    Subdomain[] bySide = new Subdomain[6];
                    for (int side = 0; side < 6; side++) {
                        int n = b.neighbour(side);
                        bySide[side] = n < 0 ? null : subdomains[n];
                    }
                    subdomains[b.index()].connect(bySide, c);
                }
            } catch (RuntimeException e) { // a node lost during set-up, most likely: say which
                throw new Jem3dException(
                        lost.get() != null ? lost.get() : "setting up the subdomains failed: " + e.getMessage(), e);
            }
            c.attach(subdomains, steps);
            if (stopRequested) {
                throw new Jem3dException("stopped before the run started");
            }
            collector = c;
            phase = Phase.RUNNING;
            c.start();
            if (stopRequested) {
                c.stop(); // stop() may have come between the check above and the start
            }
            RunStatus status = await(c, lost);
            List<SubdomainResult> results = c.results();
            double errorE = 0;
            double errorH = 0;
            double seconds = 0;
            double waited = 0;
            double looped = 0;
            long heap = 0;
            int done = status.stepsDone();
            for (SubdomainResult r : results) {
                heap += r.heapBytes();
                errorE += r.errorSquareE();
                errorH += r.errorSquareH();
                seconds = Math.max(seconds, r.seconds());
                waited += r.waitSeconds();
                looped += r.seconds();
                if (r.steps() != done) {
                    throw new Jem3dException("subdomain " + r.index() + " made " + r.steps() + " steps, others " + done
                            + ": the run is inconsistent");
                }
            }
            List<BlockFields> fields = new ArrayList<>();
            if (keepFields) {
                for (Block b : blocks) {
                    double[][] f = subdomains[b.index()].fields();
                    fields.add(new BlockFields(b, f[0], f[1]));
                }
            }
            double[][] slice = keepSlice ? slice(mesh, blocks, subdomains) : null;
            return new Jem3dReport(
                    mesh,
                    mesh.tetrahedra(),
                    placement.division(),
                    nodes.size(),
                    done,
                    steps,
                    dt,
                    seconds,
                    looped > 0 ? waited / looped : 0,
                    status.energyDrift(),
                    Math.sqrt(errorE),
                    Math.sqrt(errorH),
                    (double) heap / mesh.tetrahedra(),
                    c.energies(),
                    c.errors(),
                    fields,
                    slice);
        } finally {
            phase = Phase.OVER;
            collector = null;
            unsubscribe.run();
            terminate(c, subdomains, home, lostRuntimes);
        }
    }

    /** |E| per cell of the layer at half height, as [y][x], from the blocks that hold that layer. */
    private static double[][] slice(final Mesh mesh, final List<Block> blocks, final Subdomain[] subdomains) {
        int layer = mesh.cells(2) / 2;
        double[][] out = new double[mesh.cells(1)][mesh.cells(0)];
        for (Block b : blocks) {
            if (layer >= b.lo()[2] && layer < b.hi()[2]) {
                double[] part = subdomains[b.index()].sliceMagnitudeE(layer);
                for (int j = 0; j < b.cells(1); j++) {
                    for (int i = 0; i < b.cells(0); i++) {
                        out[b.lo()[1] + j][b.lo()[0] + i] = part[i + b.cells(0) * j];
                    }
                }
            }
        }
        return out;
    }

    /** Creates the subdomains on their nodes in parallel: each sets up its block there, which takes a while. */
    private void createAll(
            final List<Block> blocks,
            final Node[] home,
            final Subdomain[] out,
            final Mesh mesh,
            final double dt,
            final int steps) {
        List<Thread> threads = new ArrayList<>();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        for (Block b : blocks) {
            SubdomainPlan plan = new SubdomainPlan(mesh, b, dt, options.mode(), steps, options.errorEvery());
            Node node = home[b.index()];
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    out[b.index()] = ActiveObjects.newActive(Subdomain.class, new Object[] {plan}, node);
                } catch (RuntimeException e) { // a block too big for the node's heap says so itself
                    failure.compareAndSet(
                            null,
                            new Jem3dException(
                                    "could not create " + b + " on node " + node.name() + ": " + e.getMessage(), e));
                }
            }));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Jem3dException("interrupted while creating the subdomains", e);
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    private RunStatus await(final Collector c, final AtomicReference<String> lost) {
        while (true) {
            if (lost.get() != null) {
                throw new Jem3dException(lost.get());
            }
            RunStatus status = c.status();
            listener.progress(status);
            if (status.failure() != null) {
                throw new Jem3dException(status.failure());
            }
            if (status.isOver()) {
                return status;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Jem3dException("interrupted while the run was going on", e);
            }
        }
    }

    private static String describeLoss(final List<Block> gone, final String runtimeId, final String reason) {
        StringBuilder b = new StringBuilder();
        for (Block block : gone) {
            b.append(b.isEmpty() ? "" : ", ").append(block);
        }
        return "lost " + b + ": its node JVM (" + runtimeId + ") " + reason;
    }

    /** Ends the collector and the subdomains, except those on lost JVMs: nothing answers there. */
    private static void terminate(
            final Collector c, final Subdomain[] subdomains, final Node[] home, final Set<String> lostRuntimes) {
        List<Object> all = new ArrayList<>();
        for (int i = 0; i < subdomains.length; i++) {
            if (!lostRuntimes.contains(home[i].runtimeId())) {
                all.add(subdomains[i]);
            }
        }
        all.add(c);
        for (Object o : all) {
            if (o != null) {
                try {
                    ActiveObjects.terminate(o);
                } catch (RuntimeException e) {
                    LOG.debug("could not terminate {}: {}", o, e.toString());
                }
            }
        }
    }
}
