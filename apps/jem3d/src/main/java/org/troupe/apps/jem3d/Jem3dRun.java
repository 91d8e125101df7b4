package org.troupe.apps.jem3d;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.ActiveObjects;
import org.troupe.core.Node;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.deploy.Deployment;
import org.troupe.deploy.DeploymentFailure;
import org.troupe.deploy.NodeRequest;
import org.troupe.deploy.VirtualNode;

/**
 * One Jem3D run on a started deployment: it takes the nodes of virtual node {@code jem3d}, decides what to do with
 * what came ({@link Adapt}), divides the mesh, creates one {@link Subdomain} per block on the nodes and a
 * {@link Collector} here, runs them, and reports; the caller closes the deployment, which stops its JVMs.
 *
 * <p>Every {@link Jem3dOptions#checkpointEvery()} steps the subdomains keep a copy of their fields on their node and
 * on a buddy node. When a node is lost ({@link OnLoss#CONTINUE}), the run stops the other subdomains, asks the
 * virtual node for a replacement and, if none comes within the timeout, divides the mesh among the nodes left; every
 * subdomain then restarts from the last complete checkpoint, so the final fields are bit for bit those of an
 * uninterrupted run. A failing subdomain ends the run with a {@link Jem3dException} that names it.
 */
public final class Jem3dRun {
    public static final String VIRTUAL_NODE = "jem3d";

    private static final Logger LOG = LoggerFactory.getLogger(Jem3dRun.class);
    private static final long POLL_MILLIS = 100;
    /** How long a subdomain's failure waits for a loss that may explain it to be noticed. */
    private static final long LOSS_GRACE_MILLIS = 1_000;

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
    private DiskCheckpoint resumed;
    private boolean keepSlice;
    private volatile Collector collector;
    private volatile boolean stopRequested;
    /** Whether {@link #pause()} was called last, rather than {@link #resume()}. */
    private volatile boolean paused;

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
        return run(placement, vn);
    }

    /** Makes the report carry every block's final fields ({@link Jem3dReport#fields()}); for checks, small meshes. */
    public Jem3dRun keepFields() {
        keepFields = true;
        return this;
    }

    /**
     * Makes the run go on from {@code checkpoint}, a disk checkpoint of the same run (mesh, mode, CFL, steps), on
     * whatever nodes it gets now, instead of from the start: to the fields an uninterrupted run ends with.
     *
     * @throws IllegalArgumentException when the checkpoint is of another run, or the options would change its mesh
     */
    public Jem3dRun resumeFrom(final DiskCheckpoint checkpoint) {
        Mesh mesh = options.mesh();
        if (!checkpoint.matches(
                mesh, options.mode(), options.cfl(), mesh.timeStep(options.cfl()), options.stepsFor(mesh))) {
            throw new IllegalArgumentException("the " + checkpoint + " is not of this run (mesh " + mesh + ", mode "
                    + options.mode() + ", CFL " + options.cfl() + ", " + options.stepsFor(mesh) + " steps): resume "
                    + "it with the options it was written with");
        }
        if (options.adapt() == Adapt.SHRINK) {
            throw new IllegalArgumentException(
                    "--adapt shrink would change the mesh of a resumed run: use divide or " + "wait");
        }
        resumed = checkpoint;
        return this;
    }

    /** Makes the report carry |E| on the mid-plane in z ({@link Jem3dReport#sliceE()}), for the colour map. */
    public Jem3dRun keepSlice() {
        keepSlice = true;
        return this;
    }

    /** Pauses the run at the end of the current step (no-op before it starts). */
    public void pause() {
        paused = true;
        Collector c = collector;
        if (c != null) {
            c.pause();
        }
    }

    public void resume() {
        paused = false;
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
            division = divisionFor(mesh, nodes.size());
            int use = division[0] * division[1] * division[2];
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

    /**
     * Runs on the nodes, mesh and division of {@code placement}: subdomains go to the nodes in turn. A lost node is
     * survived by re-dividing among the nodes left (there is no virtual node to ask for a replacement).
     */
    public Jem3dReport run(final Placement placement) {
        return run(placement, null);
    }

    /**
     * Where an epoch starts: after step {@code step}, from these fields of the whole mesh (null: the initial ones),
     * which {@code source} names for the user.
     */
    private record Restart(int step, double[] e, double[] h, String source) {
        static final Restart START = new Restart(0, null, null, "the start");
    }

    /** Both copies of a checkpoint's block were lost: only a disk checkpoint can go on. */
    private static final class CopiesLost extends Jem3dException {
        private static final long serialVersionUID = 1L;

        CopiesLost(final String message) {
            super(message);
        }
    }

    /** One stretch of a run between (re)starts: a division placed on nodes, its subdomains and its collector. */
    private static final class Epoch {
        final int number;
        final Mesh mesh;
        final NodePlan<Node> plan;
        final int[] division;
        final List<Block> blocks;
        /** The nodes in buddy order: each block's copies go to its node's keeper and the next node's. */
        final List<Node> nodes;

        final Node[] home;
        final Restart from;
        final double[] energiesBefore;
        final double[][] errorsBefore;
        final Subdomain[] subdomains;
        Collector collector;
        /** When it started stepping (System.nanoTime), 0 before. */
        long startedAt;
        /** The latest complete checkpoint the keepers were told of. */
        int toldComplete = -1;
        /** Nodes that came late ({@link Adapt#GROW}), for which it is being stopped; empty otherwise. */
        List<Node> joining = List.of();

        Epoch(
                final int number,
                final Mesh mesh,
                final NodePlan<Node> plan,
                final Restart from,
                final double[] energiesBefore,
                final double[][] errorsBefore) {
            this.number = number;
            this.mesh = mesh;
            this.plan = plan;
            this.division = plan.division();
            this.blocks = Block.divide(mesh, division);
            this.nodes = plan.nodes();
            this.home = plan.homes().toArray(Node[]::new);
            this.from = from;
            this.energiesBefore = energiesBefore;
            this.errorsBefore = errorsBefore;
            this.subdomains = new Subdomain[blocks.size()];
        }

        Node buddyOf(final Node node) {
            return plan.buddyOf(node);
        }

        /** Its subdomains on JVM {@code runtimeId}, as a list for a message. */
        String blocksOn(final String runtimeId) {
            StringBuilder b = new StringBuilder();
            for (Block block : blocks) {
                if (home[block.index()].runtimeId().equals(runtimeId)) {
                    b.append(b.isEmpty() ? "" : ", ").append(block);
                }
            }
            return b.toString();
        }
    }

    /** What the next epoch changes, told once it steps: a restart after a loss, or nodes that joined. */
    private record Change(RunEvent.Kind kind, String text, int stepsRedone, long noticedAt) {
        RunEvent event(final int step) {
            return new RunEvent(kind, step, text, stepsRedone, (System.nanoTime() - noticedAt) / 1e9);
        }
    }

    /** A node of the running epoch was lost: the run restarts or ends, as --on-loss says. */
    private static final class NodeLost extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NodeLost(final String message) {
            super(message, null, false, false);
        }
    }

    private Jem3dReport run(final Placement placement, final VirtualNode vn) {
        TroupeRuntime runtime = TroupeRuntime.get();
        Mesh mesh = placement.mesh();
        double dt = mesh.timeStep(options.cfl());
        int steps = options.stepsFor(mesh);
        Map<String, String> lost = new ConcurrentHashMap<>();
        Runnable unsubscribe = runtime.onRuntimeLost(lost::putIfAbsent);
        Map<String, Keeper> keepers = new HashMap<>();
        List<Epoch> epochs = new ArrayList<>();
        List<RunEvent> events = new ArrayList<>();
        DiskWriter disk =
                options.checkpointDir() == null ? null : new DiskWriter(options.checkpointDir(), mesh, dt, steps);
        try {
            Epoch epoch = new Epoch(
                    0,
                    mesh,
                    NodePlan.inTurn(placement.division(), placement.nodes()),
                    resumed == null
                            ? Restart.START
                            : new Restart(resumed.step(), resumed.e(), resumed.h(), "its disk checkpoint"),
                    resumed == null ? new double[0] : resumed.energies(),
                    resumed == null ? new double[0][] : resumed.errors());
            listener.info(String.format(
                    Locale.ROOT,
                    "setting up %d subdomain%s of mesh %s (%,d tetrahedra), %d steps of %.4e%s",
                    placement.division()[0]
                            * placement.division()[1]
                            * placement.division()[2],
                    Arrays.equals(placement.division(), new int[] {1, 1, 1}) ? "" : "s",
                    mesh,
                    mesh.tetrahedra(),
                    steps,
                    dt,
                    checkpointEvery(epoch) > 0
                            ? ", a checkpoint every " + options.checkpointEvery()
                            : options.checkpointEvery() > 0
                                    ? ", no checkpoint (one node, and no --checkpoint DIR)"
                                    : ""));
            if (resumed != null) {
                RunEvent e = new RunEvent(
                        RunEvent.Kind.RESUMED,
                        resumed.step(),
                        "resumed from the checkpoint of step " + resumed.step() + " on disk",
                        0,
                        0);
                events.add(e);
                listener.info(e.toString());
            }
            double earlier = 0; // the time loop's seconds in the epochs before this one
            Change change = null;
            while (true) {
                epochs.add(epoch);
                try {
                    begin(epoch, mesh, dt, steps, keepers, lost);
                    if (change != null) {
                        RunEvent e = change.event(epoch.from.step());
                        events.add(e);
                        listener.info(e.toString());
                    }
                    RunStatus status = await(epoch, keepers, lost, disk, vn);
                    if (epoch.joining.isEmpty() || stopRequested || status.stepsDone() >= steps) {
                        if (disk != null) {
                            disk.finish();
                        }
                        try {
                            Jem3dReport report = report(mesh, dt, steps, epoch, status, earlier, events);
                            if (disk != null && !report.stoppedEarly()) {
                                disk.removeAll(listener);
                            }
                            return report;
                        } catch (PeerFailedException e) { // a node lost after the last step, before its fields came
                            sleep(LOSS_GRACE_MILLIS);
                            lostNode(epoch, lost);
                            throw new Jem3dException("reading the run's results failed: " + e.getMessage(), e);
                        }
                    }
                    // stopped for the nodes that joined: on all of them from the step it stopped after
                    long noticed = System.nanoTime();
                    earlier += epoch.collector.results().stream()
                            .mapToDouble(SubdomainResult::seconds)
                            .max()
                            .orElse(0);
                    StringBuilder why = new StringBuilder();
                    Epoch next = grown(mesh, epoch, status.stepsDone(), why);
                    terminate(List.of(epoch), Map.of(), lost, false);
                    change = new Change(RunEvent.Kind.GREW, why.toString(), 0, noticed);
                    epoch = next;
                } catch (NodeLost e) {
                    if (options.onLoss() == OnLoss.FAIL) {
                        throw new Jem3dException(e.getMessage());
                    }
                    long noticed = System.nanoTime();
                    if (epoch.startedAt > 0) {
                        earlier += (noticed - epoch.startedAt) / 1e9;
                    }
                    StringBuilder why = new StringBuilder();
                    Recovery r = recover(e, mesh, epoch, keepers, lost, disk, events);
                    epoch = next(mesh, epoch, r.from(), vn, lost, why);
                    change = new Change(RunEvent.Kind.RESTARTED, why.toString(), r.stepsRedone(), noticed);
                    // a stop meanwhile: the restarted run stops after its first step, and reports
                }
            }
        } finally {
            phase = Phase.OVER;
            collector = null;
            unsubscribe.run();
            terminate(epochs, keepers, lost, true);
        }
    }

    /**
     * After {@code lost} ended {@code epoch}: tells it, finds where the run restarts from (its last complete
     * checkpoint, the disk's when both copies of a block were lost, or where the epoch began), and ends the epoch's
     * subdomains.
     */
    private Recovery recover(
            final NodeLost loss,
            final Mesh mesh,
            final Epoch epoch,
            final Map<String, Keeper> keepers,
            final Map<String, String> lost,
            final DiskWriter disk,
            final List<RunEvent> events) {
        RunStatus last = epoch.collector == null ? null : epoch.collector.status();
        int reached = last == null ? epoch.from.step() : last.stepsDone();
        RunEvent told = new RunEvent(RunEvent.Kind.LOST, reached, loss.getMessage(), 0, 0);
        events.add(told);
        listener.info(told.toString());
        Restart from;
        try {
            from = last != null && last.checkpointStep() > epoch.from.step()
                    ? gather(mesh, epoch, last.checkpointStep(), keepers, lost, false)
                    : epoch.from;
        } catch (CopiesLost copies) {
            from = fromDisk(disk, copies);
        }
        terminate(List.of(epoch), Map.of(), lost, false);
        keepers.keySet().removeIf(lost::containsKey);
        return new Recovery(from, reached - from.step());
    }

    /** Where a run restarts after a loss, and the steps it makes again. */
    private record Recovery(Restart from, int stepsRedone) {}

    /**
     * The epoch after a loss, from {@code from}: on replacement nodes with the same division if the deployment
     * gives them within the timeout, else re-divided among the nodes left. Says in {@code why} what it chose.
     */
    private Epoch next(
            final Mesh mesh,
            final Epoch epoch,
            final Restart from,
            final VirtualNode vn,
            final Map<String, String> lost,
            final StringBuilder why) {
        List<Node> gone = epoch.nodes.stream()
                .filter(n -> lost.containsKey(n.runtimeId()))
                .toList();
        List<Node> left = epoch.nodes.stream()
                .filter(n -> !lost.containsKey(n.runtimeId()))
                .toList();
        Replacements asked = replacements(vn, gone.size(), lost);
        List<Node> replacements = asked.nodes();
        double[] energies =
                epoch.collector == null ? epoch.energiesBefore : Arrays.copyOf(epoch.collector.energies(), from.step());
        double[][] errors = (epoch.collector == null ? epoch.errorsBefore : epoch.collector.errors());
        errors = Arrays.stream(errors).filter(row -> row[0] <= from.step()).toArray(double[][]::new);
        why.append("restarted from ").append(from.source());
        if (replacements.size() >= gone.size()) {
            why.append(" with ")
                    .append(gone.size() == 1 ? "a replacement node" : gone.size() + " replacement nodes")
                    .append(", division ")
                    .append(Division.format(epoch.division))
                    .append(" kept");
            return new Epoch(epoch.number + 1, mesh, epoch.plan.replacing(gone, replacements), from, energies, errors);
        }
        List<Node> nodes = new ArrayList<>(left);
        nodes.addAll(replacements);
        int min = options.effectiveMinNodes();
        if (nodes.isEmpty() || nodes.size() < min) {
            throw new Jem3dException("after losing " + gone.size() + (gone.size() == 1 ? " node" : " nodes") + ", "
                    + nodes.size() + (nodes.size() == 1 ? " is" : " are") + " left"
                    + (asked.shortfall().isEmpty() ? "" : " (" + asked.shortfall() + ")")
                    + ", fewer than the " + Math.max(1, min) + " the run needs (--min-nodes)");
        }
        NodePlan<Node> plan = NodePlan.divided(mesh, nodes);
        why.append(asked.shortfall().isEmpty() ? "" : ", " + asked.shortfall())
                .append(", re-divided onto ")
                .append(plan.nodes().size())
                .append(plan.nodes().size() == 1 ? " node: " : " nodes: ")
                .append(Division.describe(mesh, plan.division()));
        return new Epoch(epoch.number + 1, mesh, plan, from, energies, errors);
    }

    /**
     * The epoch after {@code epoch} stopped after {@code step} for the nodes joining it: the mesh re-divided onto all
     * of them, from its subdomains' fields.
     */
    private static Epoch grown(final Mesh mesh, final Epoch epoch, final int step, final StringBuilder why) {
        List<BlockFields> parts = new ArrayList<>();
        for (Block b : epoch.blocks) {
            double[][] f = epoch.subdomains[b.index()].fields();
            parts.add(new BlockFields(b, f[0], f[1]));
        }
        double[][] whole = BlockFields.assemble(mesh, parts);
        List<Node> nodes = new ArrayList<>(epoch.nodes);
        nodes.addAll(epoch.joining);
        NodePlan<Node> plan = NodePlan.divided(mesh, nodes);
        why.append(epoch.joining.size() == 1 ? "a node" : epoch.joining.size() + " nodes")
                .append(" joined; re-divided onto ")
                .append(plan.nodes().size())
                .append(" nodes: ")
                .append(Division.describe(mesh, plan.division()));
        return new Epoch(
                epoch.number + 1,
                mesh,
                plan,
                new Restart(step, whole[0], whole[1], "step " + step),
                epoch.collector.energies(),
                epoch.collector.errors());
    }

    /**
     * The nodes of {@code vn} that came after {@code epoch} started and would let it divide the mesh finer, up to
     * --nodes in all; none unless the policy is {@link Adapt#GROW}.
     */
    private List<Node> newcomers(
            final Mesh mesh, final Epoch epoch, final VirtualNode vn, final Map<String, String> lost) {
        int room = options.nodes() - epoch.nodes.size();
        if (vn == null || options.adapt() != Adapt.GROW || room <= 0) {
            return List.of();
        }
        List<Node> come = vn.nodes().stream()
                .filter(n -> !epoch.nodes.contains(n) && !lost.containsKey(n.runtimeId()))
                .limit(room)
                .toList();
        int[] finer = divisionFor(mesh, epoch.nodes.size() + come.size());
        return finer[0] * finer[1] * finer[2] > epoch.blocks.size() ? come : List.of();
    }

    /** The replacement nodes that came, and if too few, why (empty without a virtual node to ask). */
    private record Replacements(List<Node> nodes, String shortfall) {}

    /** Asks {@code vn} for {@code n} nodes and waits for them up to the timeout; none without a virtual node. */
    private Replacements replacements(final VirtualNode vn, final int n, final Map<String, String> lost) {
        if (vn == null || n == 0) {
            return new Replacements(List.of(), "");
        }
        try {
            NodeRequest request = vn.request(n);
            listener.info("asking the deployment for " + (n == 1 ? "a replacement node" : n + " replacement nodes")
                    + " (launch " + request.label() + "), waiting up to "
                    + options.timeout().toSeconds() + " s");
            // in slices: a stop (Ctrl-C) must not wait out the timeout
            long deadline = System.nanoTime() + options.timeout().toNanos();
            while (!stopRequested && !request.isSettled() && System.nanoTime() < deadline) {
                request.await(Duration.ofMillis(
                        Math.min(POLL_MILLIS, Math.max(1, (deadline - System.nanoTime()) / 1_000_000))));
            }
            List<Node> came = request.nodes().stream()
                    .filter(node -> !lost.containsKey(node.runtimeId()))
                    .toList();
            String failure = vn.failures().stream()
                    .filter(f -> f.launch().equals(request.label()))
                    .map(DeploymentFailure::reason)
                    .findFirst()
                    .orElse(null);
            return new Replacements(
                    came,
                    failure != null
                            ? "the replacement's launch failed (" + failure + ")"
                            : stopRequested
                                    ? "stopped before a replacement came"
                                    : "no replacement within "
                                            + options.timeout().toSeconds() + " s");
        } catch (IllegalStateException e) { // the deployment closed meanwhile
            return new Replacements(List.of(), "no replacement: " + e.getMessage());
        }
    }

    /** The best division of {@code mesh} for at most {@code nodes} blocks: fewer when it cannot be cut that fine. */
    static int[] divisionFor(final Mesh mesh, final int nodes) {
        for (int use = nodes; ; use--) {
            int[] division = Division.best(mesh, use);
            if (division != null) {
                return division;
            }
        }
    }

    /**
     * The fields of the whole mesh after {@code step}, from the checkpoint copies of {@code epoch}'s blocks: each
     * subdomain's own where its node is alive, else the one its buddy node's keeper holds; the keeper's first if
     * {@code keeperFirst} (for a disk checkpoint, taken while the subdomains step on).
     *
     * @throws CopiesLost when both copies of a block are gone
     */
    private static Restart gather(
            final Mesh mesh,
            final Epoch epoch,
            final int step,
            final Map<String, Keeper> keepers,
            final Map<String, String> lost,
            final boolean keeperFirst) {
        BlockFields[] parts = new BlockFields[epoch.blocks.size()];
        List<Thread> threads = new ArrayList<>();
        for (Block b : epoch.blocks) {
            threads.add(Thread.ofVirtual().start(() -> {
                Node own = epoch.home[b.index()];
                Node buddy = epoch.buddyOf(own);
                Keeper k = buddy == null ? null : keepers.get(buddy.runtimeId());
                boolean ownAlive = !lost.containsKey(own.runtimeId());
                boolean buddyAlive = k != null && !lost.containsKey(buddy.runtimeId());
                for (boolean fromKeeper : keeperFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    try {
                        double[][] copy = fromKeeper
                                ? (buddyAlive ? k.copy(epoch.number, b.index(), step) : null)
                                : (ownAlive ? epoch.subdomains[b.index()].checkpointCopy(step) : null);
                        if (copy != null) {
                            parts[b.index()] = new BlockFields(b, copy[0], copy[1]);
                            return;
                        }
                    } catch (RuntimeException e) { // lost meanwhile: the other copy, if any
                        LOG.debug("checkpoint copy of {} not read: {}", b, e.toString());
                    }
                }
            }));
        }
        join(threads, "reading the checkpoint");
        StringBuilder missing = new StringBuilder();
        for (Block b : epoch.blocks) {
            if (parts[b.index()] == null) {
                Node own = epoch.home[b.index()];
                Node buddy = epoch.buddyOf(own);
                missing.append(missing.isEmpty() ? "" : "; ")
                        .append(b)
                        .append(" (node ")
                        .append(own.name())
                        .append(buddy == null ? ", no buddy on a single node" : " and its buddy " + buddy.name())
                        .append(")");
            }
        }
        if (!missing.isEmpty()) {
            throw new CopiesLost("both checkpoint copies of step " + step + " were lost for " + missing);
        }
        double[][] whole = BlockFields.assemble(mesh, Arrays.asList(parts));
        return new Restart(step, whole[0], whole[1], "the checkpoint of step " + step);
    }

    /** The last disk checkpoint, when both in-memory copies of a block were lost; else the run ends. */
    private Restart fromDisk(final DiskWriter disk, final CopiesLost copies) {
        if (disk == null) {
            throw new Jem3dException(copies.getMessage() + ", and no checkpoint is written to disk (--checkpoint "
                    + "DIR): the run cannot go on");
        }
        disk.finish();
        DiskCheckpoint d;
        try {
            d = DiskCheckpoint.latest(disk.dir);
        } catch (IllegalArgumentException e) {
            throw new Jem3dException(copies.getMessage() + ", and " + e.getMessage(), e);
        }
        if (d == null || !d.matches(disk.mesh, options.mode(), options.cfl(), disk.dt, disk.steps)) {
            throw new Jem3dException(copies.getMessage() + ", and " + disk.dir + " holds no checkpoint of this run "
                    + "yet: the run cannot go on");
        }
        return new Restart(
                d.step(), d.e(), d.h(), "the disk checkpoint of step " + d.step() + " (" + copies.getMessage() + ")");
    }

    private static void join(final List<Thread> threads, final String what) {
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Jem3dException("interrupted while " + what, e);
            }
        }
    }

    /**
     * Sets up {@code epoch} (keepers where missing, subdomains from its restart point, a collector) and starts it.
     *
     * @throws NodeLost when a node it needs is lost meanwhile
     */
    private void begin(
            final Epoch epoch,
            final Mesh mesh,
            final double dt,
            final int steps,
            final Map<String, Keeper> keepers,
            final Map<String, String> lost) {
        try {
            boolean buddies = checkpointEvery(epoch) > 0 && epoch.nodes.size() > 1;
            if (buddies) {
                for (Node n : epoch.nodes) {
                    if (!keepers.containsKey(n.runtimeId())) {
                        keepers.put(n.runtimeId(), ActiveObjects.newActive(Keeper.class, new Object[0], n));
                    }
                }
            }
            createAll(epoch, mesh, dt, steps);
            Collector c = ActiveObjects.newActive(
                    Collector.class,
                    new Object[] {
                        epoch.number,
                        epoch.nodes.size() > 1 ? 2 : 1,
                        epoch.from.step(),
                        epoch.energiesBefore,
                        epoch.errorsBefore
                    },
                    TroupeRuntime.get().defaultNode());
            epoch.collector = c;
            for (Block b : epoch.blocks) {
                Subdomain[] bySide = new Subdomain[6];
                for (int side = 0; side < 6; side++) {
                    int n = b.neighbour(side);
                    bySide[side] = n < 0 ? null : epoch.subdomains[n];
                }
                Node buddy = epoch.buddyOf(epoch.home[b.index()]);
                epoch.subdomains[b.index()].connect(bySide, c, buddies ? keepers.get(buddy.runtimeId()) : null);
            }
            c.attach(epoch.subdomains, steps);
        } catch (RuntimeException e) { // a node lost during set-up, most likely, which may be noticed a moment later
            lostNode(epoch, lost);
            sleep(LOSS_GRACE_MILLIS);
            lostNode(epoch, lost);
            throw e instanceof Jem3dException j ? j : new Jem3dException("setting up the subdomains failed: " + e, e);
        }
        if (stopRequested && epoch.number == 0) {
            throw new Jem3dException("stopped before the run started");
        }
        collector = epoch.collector;
        phase = Phase.RUNNING;
        epoch.startedAt = System.nanoTime();
        epoch.collector.start();
        if (stopRequested) {
            epoch.collector.stop(); // stop() may have come between the check above and the start
        } else if (paused) {
            epoch.collector.pause(); // a run paused before a restart stays paused after it
        }
    }

    /** Throws {@link NodeLost} if a node of {@code epoch} is lost. */
    private static void lostNode(final Epoch epoch, final Map<String, String> lost) {
        for (Node n : epoch.nodes) {
            String why = lost.get(n.runtimeId());
            if (why != null) {
                String blocks = epoch.blocksOn(n.runtimeId());
                throw new NodeLost("lost " + (blocks.isEmpty() ? "node " + n.name() : blocks) + ": its node JVM ("
                        + n.runtimeId() + ", pid " + TroupeRuntime.pidOf(n.runtimeId()) + ") " + why);
            }
        }
    }

    private Jem3dReport report(
            final Mesh mesh,
            final double dt,
            final int steps,
            final Epoch epoch,
            final RunStatus status,
            final double earlier,
            final List<RunEvent> events) {
        Collector c = epoch.collector;
        List<SubdomainResult> results = c.results();
        double errorE = 0;
        double errorH = 0;
        double seconds = 0;
        double waited = 0;
        double looped = 0;
        double checkpointing = 0;
        long heap = 0;
        int done = status.stepsDone();
        for (SubdomainResult r : results) {
            heap += r.heapBytes();
            errorE += r.errorSquareE();
            errorH += r.errorSquareH();
            seconds = Math.max(seconds, r.seconds());
            waited += r.waitSeconds();
            looped += r.seconds();
            checkpointing += r.checkpointSeconds();
            if (r.steps() != done) {
                throw new Jem3dException("subdomain " + r.index() + " made " + r.steps() + " steps, others " + done
                        + ": the run is inconsistent");
            }
        }
        List<BlockFields> fields = new ArrayList<>();
        if (keepFields) {
            for (Block b : epoch.blocks) {
                double[][] f = epoch.subdomains[b.index()].fields();
                fields.add(new BlockFields(b, f[0], f[1]));
            }
        }
        double[][] slice = keepSlice ? slice(mesh, epoch.blocks, epoch.subdomains) : null;
        return new Jem3dReport(
                mesh,
                mesh.tetrahedra(),
                epoch.division,
                epoch.nodes.size(),
                done,
                steps,
                resumed == null ? 0 : resumed.step(),
                dt,
                earlier + seconds,
                looped > 0 ? waited / looped : 0,
                status.energyDrift(),
                Math.sqrt(errorE),
                Math.sqrt(errorH),
                (double) heap / mesh.tetrahedra(),
                c.energies(),
                c.errors(),
                fields,
                slice,
                List.copyOf(events),
                looped > 0 ? checkpointing / looped : 0);
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

    /**
     * The steps between {@code epoch}'s checkpoints: none on a single node without a disk, where a copy would die with
     * the node it is of (a loss then restarts from where the epoch began).
     */
    private int checkpointEvery(final Epoch epoch) {
        return epoch.nodes.size() > 1 || options.checkpointDir() != null ? options.checkpointEvery() : 0;
    }

    /** Creates the epoch's subdomains on their nodes in parallel: each sets up its block there, which takes a while. */
    private void createAll(final Epoch epoch, final Mesh mesh, final double dt, final int steps) {
        List<Thread> threads = new ArrayList<>();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Restart from = epoch.from;
        int every = checkpointEvery(epoch);
        for (Block b : epoch.blocks) {
            SubdomainPlan plan = new SubdomainPlan(
                    mesh, b, dt, options.mode(), steps, options.errorEvery(), from.step(), every, epoch.number);
            Node node = epoch.home[b.index()];
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    Object[] args;
                    if (from.e() == null) {
                        args = new Object[] {plan};
                    } else {
                        BlockFields part = BlockFields.of(mesh, b, from.e(), from.h());
                        args = new Object[] {plan, part.e(), part.h()};
                    }
                    epoch.subdomains[b.index()] = ActiveObjects.newActive(Subdomain.class, args, node);
                } catch (RuntimeException e) { // a block too big for the node's heap says so itself
                    failure.compareAndSet(
                            null,
                            new Jem3dException(
                                    "could not create " + b + " on node " + node.name() + ": " + e.getMessage(), e));
                }
            }));
        }
        join(threads, "creating the subdomains");
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    /**
     * Waits for the end of {@code epoch}, telling the listener its progress and the keepers the checkpoints
     * complete (their older copies can go).
     *
     * @throws NodeLost when one of its nodes is lost
     */
    private RunStatus await(
            final Epoch epoch,
            final Map<String, Keeper> keepers,
            final Map<String, String> lost,
            final DiskWriter disk,
            final VirtualNode vn) {
        while (true) {
            lostNode(epoch, lost);
            RunStatus status = epoch.collector.status();
            listener.progress(status);
            if (status.failure() != null) {
                // a subdomain whose neighbour's JVM died may fail before the loss is noticed: a loss wins
                sleep(LOSS_GRACE_MILLIS);
                lostNode(epoch, lost);
                throw new Jem3dException(status.failure());
            }
            if (disk != null) {
                disk.warn(listener);
            }
            // nodes that came late join at a checkpoint (at once without checkpoints): the epoch stops after a step
            boolean atCheckpoint = status.checkpointStep() > epoch.toldComplete || checkpointEvery(epoch) == 0;
            if (atCheckpoint && epoch.joining.isEmpty() && !stopRequested && !status.isOver()) {
                epoch.joining = newcomers(epoch.mesh, epoch, vn, lost);
                if (!epoch.joining.isEmpty()) {
                    epoch.collector.stop();
                }
            }
            // while a disk checkpoint reads copies, none is dropped: the next complete one waits
            if (status.checkpointStep() > epoch.toldComplete && (disk == null || !disk.busy())) {
                epoch.toldComplete = status.checkpointStep();
                if (disk != null) {
                    disk.write(epoch, epoch.toldComplete, keepers, lost, options);
                }
                int complete = epoch.toldComplete;
                for (int i = 0; i < epoch.subdomains.length; i++) {
                    Subdomain s = epoch.subdomains[i];
                    tell(epoch.home[i], () -> s.checkpointComplete(complete));
                }
                for (Node n : epoch.nodes) {
                    Keeper k = keepers.get(n.runtimeId());
                    if (k != null) {
                        tell(n, () -> k.complete(epoch.number, complete));
                    }
                }
            }
            if (status.isOver()) {
                return status;
            }
            sleep(POLL_MILLIS);
        }
    }

    /** Writes complete checkpoints to disk, one at a time, on a thread of its own while the run steps on. */
    private static final class DiskWriter {
        final Path dir;
        final Mesh mesh;
        final double dt;
        final int steps;
        private Thread writing;
        private volatile String failure;

        DiskWriter(final Path dir, final Mesh mesh, final double dt, final int steps) {
            this.dir = dir;
            this.mesh = mesh;
            this.dt = dt;
            this.steps = steps;
        }

        boolean busy() {
            return writing != null && writing.isAlive();
        }

        void write(
                final Epoch epoch,
                final int step,
                final Map<String, Keeper> keepers,
                final Map<String, String> lost,
                final Jem3dOptions options) {
            double[] energies = Arrays.copyOf(epoch.collector.energies(), step);
            double[][] errors = Arrays.stream(epoch.collector.errors())
                    .filter(row -> row[0] <= step)
                    .toArray(double[][]::new);
            writing = Thread.ofVirtual().name("jem3d-disk-checkpoint").start(() -> {
                try {
                    Restart r = gather(mesh, epoch, step, keepers, lost, true);
                    new DiskCheckpoint(
                                    mesh,
                                    options.mode(),
                                    options.cfl(),
                                    dt,
                                    steps,
                                    options.errorEvery(),
                                    step,
                                    energies,
                                    errors,
                                    r.e(),
                                    r.h())
                            .write(dir);
                } catch (CopiesLost | PeerFailedException e) {
                    // nodes lost while it read the copies: the run restarts, and writes its next checkpoint then
                } catch (IOException | RuntimeException e) {
                    failure = "could not write the checkpoint of step " + step + " to " + dir + ": " + e.getMessage();
                }
            });
        }

        /** Tells the listener of a failure since the last call: the run goes on with its checkpoints in memory. */
        void warn(final Listener listener) {
            String f = failure;
            if (f != null) {
                failure = null;
                listener.info("warning: " + f + "; the run goes on, the last checkpoint in memory only");
            }
        }

        /** Deletes the checkpoints in the directory: the run is complete, nothing is left to resume. */
        void removeAll(final Listener listener) {
            try {
                for (Path f : DiskCheckpoint.checkpoints(dir)) {
                    Files.deleteIfExists(f);
                }
                listener.info("the run is complete: its checkpoint in " + dir + " is removed");
            } catch (IOException e) {
                listener.info("warning: could not remove the checkpoints in " + dir + ": " + e.getMessage());
            }
        }

        /** Waits for the write under way. */
        void finish() {
            if (writing != null) {
                try {
                    writing.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * Makes a one-way call to an object on {@code node}. A call to a JVM that has just died throws before its loss
     * is noticed: that loss is then the run's to handle, not this call's.
     */
    private static void tell(final Node node, final Runnable call) {
        try {
            call.run();
        } catch (PeerFailedException e) {
            LOG.debug("{} not told: {}", node.name(), e.getMessage());
        }
    }

    private static void sleep(final long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Jem3dException("interrupted while the run was going on", e);
        }
    }

    /**
     * Ends the subdomains of {@code epochs} (with their collectors if {@code all}) and {@code keepers}, except those
     * on lost JVMs: nothing answers there.
     */
    private static void terminate(
            final List<Epoch> epochs,
            final Map<String, Keeper> keepers,
            final Map<String, String> lost,
            final boolean all) {
        List<Object> objects = new ArrayList<>();
        for (Epoch e : epochs) {
            for (int i = 0; i < e.subdomains.length; i++) {
                if (!lost.containsKey(e.home[i].runtimeId())) {
                    objects.add(e.subdomains[i]);
                }
            }
            if (all) {
                objects.add(e.collector);
            }
        }
        keepers.forEach((runtimeId, k) -> {
            if (!lost.containsKey(runtimeId)) {
                objects.add(k);
            }
        });
        for (Object o : objects) {
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
