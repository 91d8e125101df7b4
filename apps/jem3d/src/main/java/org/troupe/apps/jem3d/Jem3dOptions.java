package org.troupe.apps.jem3d;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A run's settings, as {@code bin/jem3d} takes them.
 *
 * @param mesh the mesh (points per side)
 * @param time the simulated time, used when {@code steps} is 0: the run makes ceil(time / dt) steps
 * @param steps the number of steps, or 0 to derive it from {@code time}
 * @param cfl the CFL number, in (0, 1]
 * @param mode the cavity mode the fields start from and are compared with
 * @param descriptor the deployment descriptor whose virtual node "jem3d" gives the nodes
 * @param nodes the nodes to ask for
 * @param adapt what to do with fewer nodes than asked for
 * @param minNodes the fewest nodes the run accepts (0: 1, or {@code nodes} for {@link Adapt#WAIT})
 * @param timeout how long to wait for the nodes
 * @param division a division to use instead of the best one for the nodes (null: the best); its subdomains are
 *     placed on the nodes in turn
 * @param errorEvery measure the error every this many steps (0: only at the end)
 * @param checkpointEvery take a checkpoint every this many steps (0: never; a loss then restarts the run)
 * @param onLoss what a lost node does to the run
 * @param checkpointDir where checkpoints are written too, or null: in memory only (on the nodes)
 */
public record Jem3dOptions(
        Mesh mesh,
        double time,
        int steps,
        double cfl,
        CavityMode mode,
        Path descriptor,
        int nodes,
        Adapt adapt,
        int minNodes,
        Duration timeout,
        int[] division,
        int errorEvery,
        int checkpointEvery,
        OnLoss onLoss,
        Path checkpointDir) {
    /** One period of the default mode: 2 / sqrt(3). */
    public static final double DEFAULT_TIME = 2 / Math.sqrt(3);

    public static final int DEFAULT_MESH = 41;
    public static final int DEFAULT_NODES = 2;
    public static final double DEFAULT_CFL = 0.5;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /**
     * Steps between checkpoints. A checkpoint costs about five steps' time here (a copy of the fields, another sent
     * to the buddy node and decoded there, on cores the subdomains share): every 200 steps that is 2.5% of a long time
     * loop and 1-1.5% of the default run's; every 100, 4% of the default run's (bin/bench jem3d --case recovery).
     */
    public static final int DEFAULT_CHECKPOINT_EVERY = 200;
    /** Bounds that keep a typing slip from forking a host to death or filling a heap with bookkeeping. */
    public static final int MAX_STEPS = 10_000_000;

    public static final int MAX_NODES = 1024;
    public static final Duration MAX_TIMEOUT = Duration.ofDays(7);

    public Jem3dOptions {
        if (!(cfl > 0 && cfl <= 1)) {
            throw new IllegalArgumentException("CFL " + cfl + " is outside (0, 1]: the scheme is stable up to 1");
        }
        if (steps < 0 || steps > MAX_STEPS) {
            throw new IllegalArgumentException("steps must be between 1 and " + MAX_STEPS + ", got " + steps);
        }
        if (steps == 0 && !(time > 0 && Double.isFinite(time))) {
            throw new IllegalArgumentException("time must be a positive number, got " + time);
        }
        if (steps == 0 && time / mesh.timeStep(cfl) > MAX_STEPS) {
            throw new IllegalArgumentException(String.format(
                    Locale.ROOT,
                    "time %g takes %.3g steps of %.3g "
                            + "on mesh %s at CFL %s, more than %d: give a shorter time, a coarser mesh or a larger CFL",
                    time,
                    time / mesh.timeStep(cfl),
                    mesh.timeStep(cfl),
                    mesh,
                    cfl,
                    MAX_STEPS));
        }
        if (nodes < 1 || nodes > MAX_NODES) {
            throw new IllegalArgumentException("nodes must be between 1 and " + MAX_NODES + ", got " + nodes);
        }
        if (minNodes < 0 || minNodes > nodes) {
            throw new IllegalArgumentException(
                    "min-nodes must be between 1 and nodes (" + nodes + "), got " + minNodes);
        }
        if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException("timeout must be between 1 s and " + MAX_TIMEOUT.toDays() + " days, got "
                    + timeout.toSeconds() + " s");
        }
        if (errorEvery < 0) {
            throw new IllegalArgumentException("errorEvery must be 0 or more, got " + errorEvery);
        }
        if (checkpointEvery < 0) {
            throw new IllegalArgumentException("checkpoint-every must be 0 (none) or more, got " + checkpointEvery);
        }
        if (division != null) {
            division = division.clone();
        }
    }

    /** The defaults of {@code bin/jem3d}: m = 41, one period, CFL 0.5, mode 111, 2 local node JVMs. */
    public static Jem3dOptions defaults(final Path descriptor) {
        return new Jem3dOptions(
                new Mesh(DEFAULT_MESH, DEFAULT_MESH, DEFAULT_MESH),
                DEFAULT_TIME,
                0,
                DEFAULT_CFL,
                CavityMode.defaultMode(),
                descriptor,
                DEFAULT_NODES,
                Adapt.DIVIDE,
                0,
                DEFAULT_TIMEOUT,
                null,
                0,
                DEFAULT_CHECKPOINT_EVERY,
                OnLoss.CONTINUE,
                null);
    }

    public Jem3dOptions withMesh(final Mesh m) {
        return with(c -> c.mesh = m);
    }

    public Jem3dOptions withSteps(final int n) {
        return with(c -> c.steps = n);
    }

    public Jem3dOptions withNodes(final int n, final Adapt policy, final int min) {
        return with(c -> {
            c.nodes = n;
            c.adapt = policy;
            c.minNodes = min;
        });
    }

    public Jem3dOptions withTimeout(final Duration t) {
        return with(c -> c.timeout = t);
    }

    public Jem3dOptions withErrorEvery(final int every) {
        return with(c -> c.errorEvery = every);
    }

    /** These options taking a checkpoint every {@code every} steps (0: none), to {@code dir} too if not null. */
    public Jem3dOptions withCheckpoints(final int every, final Path dir) {
        return with(c -> {
            c.checkpointEvery = every;
            c.checkpointDir = dir;
        });
    }

    public Jem3dOptions withOnLoss(final OnLoss policy) {
        return with(c -> c.onLoss = policy);
    }

    /** A copy of these options with what {@code change} sets, checked as any options are. */
    private Jem3dOptions with(final Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return new Jem3dOptions(
                c.mesh,
                time,
                c.steps,
                cfl,
                mode,
                descriptor,
                c.nodes,
                c.adapt,
                c.minNodes,
                c.timeout,
                division,
                c.errorEvery,
                c.checkpointEvery,
                c.onLoss,
                c.checkpointDir);
    }

    /** The settings a {@code with} method may change. */
    private static final class Copy {
        Mesh mesh;
        int steps;
        int nodes;
        Adapt adapt;
        int minNodes;
        Duration timeout;
        int errorEvery;
        int checkpointEvery;
        OnLoss onLoss;
        Path checkpointDir;

        Copy(final Jem3dOptions o) {
            mesh = o.mesh;
            steps = o.steps;
            nodes = o.nodes;
            adapt = o.adapt;
            minNodes = o.minNodes;
            timeout = o.timeout;
            errorEvery = o.errorEvery;
            checkpointEvery = o.checkpointEvery;
            onLoss = o.onLoss;
            checkpointDir = o.checkpointDir;
        }
    }

    /** The fewest nodes accepted: {@code minNodes}, or its default for the policy. */
    public int effectiveMinNodes() {
        return minNodes > 0 ? minNodes : adapt == Adapt.WAIT ? nodes : 1;
    }

    /** The steps to make on {@code m}: {@code steps}, or ceil(time / dt), at least one. */
    public int stepsFor(final Mesh m) {
        return steps > 0 ? steps : (int) Math.max(1, Math.ceil(time / m.timeStep(cfl) - 1e-9));
    }
}
