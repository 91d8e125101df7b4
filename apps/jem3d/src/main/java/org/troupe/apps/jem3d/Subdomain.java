package org.troupe.apps.jem3d;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.TroupeRuntime;
import org.troupe.core.exceptions.PeerFailedException;
import org.troupe.core.service.RequestInfo;
import org.troupe.core.service.RunActive;
import org.troupe.core.service.Service;

/**
 * One subdomain of the cube as an active object. Its activity runs the time loop itself; each step it sends H on
 * its border faces to its neighbours, serves their H, updates E, sends E, serves theirs, updates H and reports its
 * energy to the collector. It waits only for its own neighbours' values, never for a global barrier: a subdomain
 * can be at most one step ahead of a neighbour, so a counter per field is enough to know a step's values are in
 * (a value for the next step cannot arrive before this one's have all been used).
 *
 * <p>Every {@link SubdomainPlan#checkpointEvery()} steps it keeps a copy of its fields and sends one to the
 * {@link Keeper} of its buddy node. All subdomains take it after the same step, their fields then depending on
 * nothing in flight: the copies of one step are a consistent cut, which a run restarts from after a loss.
 *
 * <p>Border messages are flat {@code double[]} of 3 values per face, in the interface's canonical order. The 2004
 * Jem3D sent a list of per-face objects; through our serialization layer that costs an object header and a field
 * walk per face, where a primitive array is one bulk copy: for the 7,200 faces of an m = 61 interface, encoding
 * and decoding took a median 28 us as an array against 140-176 us as a list of records, for the same 173 kB
 * ({@code bin/bench jem3d --case border}).
 */
public class Subdomain implements RunActive {
    private static final Logger LOG = LoggerFactory.getLogger(Subdomain.class);
    /** While the loop runs, {@link #fields()} waits until the run is over. */
    private static final Predicate<RequestInfo> DURING_RUN =
            r -> !r.methodName().equals("fields");

    private SubdomainPlan plan;
    private BlockSolver solver;
    private Subdomain[] neighbours;
    /** The sides with a neighbour, as bits. */
    private int neighbourSides;

    private Collector collector;
    /** Where its checkpoint copies go besides itself: its buddy node's keeper (null on a single node). */
    private Keeper buddyKeeper;
    /** Its own checkpoint copies by step, {E, H}, until a later checkpoint is complete. */
    private final TreeMap<Integer, double[][]> copies = new TreeMap<>();
    /** A dropped copy's arrays, for the next checkpoint to fill. */
    private double[][] spare;

    private boolean started;
    private boolean paused;
    private int stopAt;
    private volatile int completed;
    /** The sides whose H (or E) of the awaited step is in, as bits: a second message from a side is an error. */
    private int arrivedH;

    private int arrivedE;
    /** Nanoseconds the time loop spent waiting for neighbours' values, and taking checkpoints. */
    private volatile long waiting;

    private long checkpointing;
    /** The thread sending the latest checkpoint's copies, until it is joined. */
    private Thread sender;
    /** A protocol violation seen by a border message, reported by the time loop. */
    private IllegalStateException broken;

    public Subdomain() {}

    /** Builds the block's solver and sets the initial fields, on the node this object lives on. */
    public Subdomain(final SubdomainPlan plan) {
        this.plan = plan;
        this.solver = new BlockSolver(plan.mesh(), plan.block(), plan.dt());
        this.stopAt = plan.steps();
        solver.initialise(plan.mode());
        spare = firstCopy(plan, solver);
    }

    /** As {@link #Subdomain(SubdomainPlan)}, from a checkpoint's fields after step {@code plan.firstStep()}. */
    public Subdomain(final SubdomainPlan plan, final double[] e, final double[] h) {
        this.plan = plan;
        this.solver = new BlockSolver(plan.mesh(), plan.block(), plan.dt());
        this.stopAt = plan.steps();
        this.completed = plan.firstStep();
        solver.restore(e, h);
        spare = firstCopy(plan, solver);
    }

    /**
     * The arrays of the first checkpoint, made with the block rather than in the time loop: a first allocation of
     * that size (megabytes, straight into the old generation) cost a whole checkpoint's time again.
     */
    private static double[][] firstCopy(final SubdomainPlan plan, final BlockSolver solver) {
        return plan.checkpointEvery() > 0 && plan.checkpointEvery() < plan.steps() ? solver.fields() : null;
    }

    /**
     * This subdomain's neighbours by side (null at a wall), the collector it reports to, and the keeper of its
     * buddy node that its checkpoint copies go to (null on a single node, or without checkpoints). Synchronous (it
     * returns the number of neighbours): every subdomain must be connected before any starts, because a neighbour's
     * first border message comes over another link than this call and could overtake it.
     */
    public int connect(final Subdomain[] bySide, final Collector collector, final Keeper buddy) {
        this.buddyKeeper = buddy;
        if (bySide.length != 6) {
            throw new IllegalArgumentException("a subdomain has 6 sides, got " + bySide.length + " neighbours");
        }
        this.neighbours = bySide.clone();
        this.collector = collector;
        neighbourSides = 0;
        for (int side = 0; side < 6; side++) {
            if ((bySide[side] == null) != (plan.block().neighbour(side) < 0)) {
                throw new IllegalArgumentException(plan.block() + ": side " + side + " has "
                        + (bySide[side] == null ? "no neighbour but is not a wall" : "a neighbour but is a wall"));
            }
            neighbourSides |= bySide[side] == null ? 0 : 1 << side;
        }
        return Integer.bitCount(neighbourSides);
    }

    /** Starts the time loop. */
    public void start() {
        if (collector == null) {
            throw new IllegalStateException(plan.block() + " was started before it was connected");
        }
        started = true;
    }

    /** The neighbour across {@code side} (this subdomain's side) sends its H of step {@code step}. */
    public void borderH(final int side, final int step, final double[] values) {
        // H of the next step may come while this one still waits for E: it fills ghosts this step no longer reads.
        if (accept("H", side, step, step == completed || step == completed + 1, arrivedH, values)) {
            solver.unpack(false, side, values);
            arrivedH |= 1 << side;
        }
    }

    /** The neighbour across {@code side} sends its E of step {@code step}. */
    public void borderE(final int side, final int step, final double[] values) {
        if (accept("E", side, step, step == completed, arrivedE, values)) {
            solver.unpack(true, side, values);
            arrivedE |= 1 << side;
        }
    }

    /**
     * Whether a border message fits the protocol. One that does not is kept as this subdomain's failure, which its
     * time loop then reports: an exception thrown here would only be logged, being a one-way call's.
     */
    private boolean accept(
            final String field,
            final int side,
            final int step,
            final boolean expected,
            final int arrived,
            final double[] values) {
        String wrong = null;
        if (!expected) {
            wrong = "got " + field + " of step " + step + " while at step " + completed;
        } else if (side < 0 || side > 5 || neighbours == null || neighbours[side] == null) {
            wrong = "got " + field + " across side " + side + ", where it has no neighbour";
        } else if ((arrived & 1 << side) != 0) {
            wrong = "got " + field + " of step " + step + " across side " + side + " twice";
        } else if (values == null || values.length != solver.borderValues(side)) {
            wrong = "got " + (values == null ? "no" : values.length) + " values of " + field + " across side " + side
                    + ", not " + solver.borderValues(side);
        }
        if (wrong != null && broken == null) {
            broken = new IllegalStateException(plan.block() + " " + wrong);
        }
        return wrong == null;
    }

    /**
     * Pauses at the end of the current step; answers the collector with the steps completed now, and the round of
     * pauses this answers (a late answer to an earlier pause must not count for a later one).
     */
    public void pause(final int round) {
        paused = true;
        collector.pausedAt(plan.block().index(), completed, round);
    }

    public void resume() {
        paused = false;
    }

    /** Ends the run after {@code steps} steps (at least the steps done or under way now). */
    public void stopAt(final int steps) {
        stopAt = Math.max(Math.min(steps, plan.steps()), completed);
    }

    /** E and H of this subdomain's tetrahedra, in its local order; answered once the run is over. */
    public double[][] fields() {
        return solver.fields();
    }

    /** |E| averaged over each cell of the layer at global z index {@code layer}, x fastest; empty if not here. */
    public double[] sliceMagnitudeE(final int layer) {
        return solver.sliceMagnitudeE(layer);
    }

    @Override
    public void runActivity(final Service service) {
        while (!started) {
            if (!service.blockingServeOldest()) {
                return;
            }
        }
        final int index = plan.block().index();
        final List<Meter> meters = register(index);
        try {
            if (step(service, index)) {
                service.fifoServing();
            }
        } finally {
            final MeterRegistry registry = TroupeRuntime.get().metrics().registry();
            meters.forEach(registry::remove);
        }
    }

    /** The time loop; whether the object is to serve on (it was not terminated). */
    private boolean step(final Service service, final int index) {
        try {
            long begin = System.nanoTime();
            long measuring = 0;
            while (completed < stopAt) {
                halfStep(service, false);
                double energy = halfStep(service, true);
                completed++;
                double errorE = Double.NaN;
                double errorH = Double.NaN;
                if (plan.errorEvery() > 0 && completed % plan.errorEvery() == 0) {
                    long t = System.nanoTime();
                    double[] squares = solver.errorSquares(plan.mode(), completed);
                    errorE = squares[0];
                    errorH = squares[1];
                    measuring += System.nanoTime() - t;
                }
                collector.progress(index, completed, energy, errorE, errorH);
                if (plan.checkpointEvery() > 0 && completed % plan.checkpointEvery() == 0 && completed < stopAt) {
                    checkpoint();
                }
                // control requests (pause, stop) reach a subdomain with no neighbour only here
                while (service.serveOldest(DURING_RUN)) {
                    checkBroken();
                }
                if (!service.isActive()) {
                    throw new Terminated();
                }
                while (paused && completed < stopAt) {
                    if (!service.blockingServeOldest(DURING_RUN)) {
                        throw new Terminated();
                    }
                    checkBroken();
                }
            }
            double seconds = (System.nanoTime() - begin - measuring) / 1e9;
            double[] squares = solver.errorSquares(plan.mode(), completed);
            collector.finished(new SubdomainResult(
                    index,
                    completed,
                    squares[0],
                    squares[1],
                    solver.heapBytes(),
                    seconds,
                    waiting / 1e9,
                    checkpointing / 1e9));
        } catch (Terminated e) {
            return false;
        } catch (PeerFailedException e) {
            // a neighbour's JVM is gone: the run restarts without this object, which must still answer for its
            // checkpoint copies until then
            LOG.debug("{} stops stepping: {}", plan.block(), e.getMessage());
        } catch (RuntimeException | Error e) {
            collector.failed(index, plan.block() + " failed at step " + (completed + 1) + ": " + e);
            throw e;
        }
        return true;
    }

    /**
     * Its step and its time waiting for neighbours as meters of its JVM, which go to the launcher's console with
     * the JVM's report: read when reported, nothing counted on the way.
     */
    private List<Meter> register(final int index) {
        final MeterRegistry registry = TroupeRuntime.get().metrics().registry();
        final Tags tags = Tags.of("subdomain", String.valueOf(index));
        return List.of(
                Gauge.builder("jem3d.subdomain.step", this, s -> s.completed)
                        .tags(tags)
                        .description("Steps the subdomain has completed")
                        .register(registry),
                FunctionCounter.builder("jem3d.subdomain.wait", this, s -> s.waiting / 1e9)
                        .tags(tags)
                        .baseUnit("seconds")
                        .description("Time the subdomain waited for its neighbours' values")
                        .register(registry));
    }

    /**
     * Half a step: the E update (reading H's ghosts) or the H update (reading E's). Sends the field the update reads
     * to the neighbours, computes the cells that need nothing from them while the values travel, waits for theirs,
     * then computes the cells next to the interfaces. Returns the energy share of an H update, 0 for E.
     */
    private double halfStep(final Service service, final boolean readsElectric) {
        send(readsElectric);
        solver.mirror(readsElectric);
        double energy = 0;
        for (int[] box : solver.innerBoxes()) {
            energy += solver.update(readsElectric, box);
        }
        long t = System.nanoTime();
        while ((readsElectric ? arrivedE : arrivedH) != neighbourSides) {
            if (!service.blockingServeOldest(DURING_RUN)) {
                throw new Terminated();
            }
            checkBroken();
        }
        waiting += System.nanoTime() - t;
        if (readsElectric) {
            arrivedE = 0;
        } else {
            arrivedH = 0;
        }
        for (int[] box : solver.shellBoxes()) {
            energy += solver.update(readsElectric, box);
        }
        return energy;
    }

    /**
     * Keeps a copy of its fields after the step just completed and has another sent to its buddy's keeper, which
     * tells the collector. The sending is left to another thread, which the time loop waits for only at the next
     * checkpoint: it then overlaps the steps, and the waits for neighbours' values, instead of adding to them.
     */
    private void checkpoint() {
        long t = System.nanoTime();
        joinSender();
        // the arrays of a copy dropped since, if any: a checkpoint then allocates nothing
        double[][] f = spare != null ? solver.fieldsInto(spare[0], spare[1]) : solver.fields();
        spare = null;
        int index = plan.block().index();
        int step = completed;
        copies.put(step, f);
        collector.kept(plan.epoch(), index, step);
        Keeper buddy = buddyKeeper;
        if (buddy != null) {
            Collector c = collector;
            sender = Thread.ofVirtual().name("jem3d-checkpoint-" + index).start(() -> {
                try {
                    buddy.keep(plan.epoch(), index, step, f[0], f[1], c);
                } catch (PeerFailedException e) { // the buddy is gone: this checkpoint stays incomplete
                    LOG.debug("{}: no copy of step {} to the buddy: {}", plan.block(), step, e.getMessage());
                }
            });
        }
        checkpointing += System.nanoTime() - t;
    }

    private void joinSender() {
        if (sender != null) {
            try {
                sender.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Terminated();
            }
            sender = null;
        }
    }

    /** Its own copy {E, H} of the checkpoint after {@code step}, or null if it has none (any more). */
    public double[][] checkpointCopy(final int step) {
        return copies.get(step);
    }

    /** The checkpoint after {@code step} is complete: older copies go. */
    public void checkpointComplete(final int step) {
        var older = copies.headMap(step);
        if (!older.isEmpty()) {
            spare = older.firstEntry().getValue(); // its sending ended with the checkpoint's completion
            older.clear();
        }
    }

    private void checkBroken() {
        if (broken != null) {
            throw broken;
        }
    }

    /** This object was terminated during the run: its activity ends without a report. */
    private static final class Terminated extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Terminated() {
            super(null, null, false, false);
        }
    }

    private void send(final boolean electric) {
        for (int side = 0; side < 6; side++) {
            Subdomain neighbour = neighbours[side];
            if (neighbour != null) {
                double[] values = solver.pack(electric, side);
                if (electric) {
                    neighbour.borderE(side ^ 1, completed, values);
                } else {
                    neighbour.borderH(side ^ 1, completed, values);
                }
            }
        }
    }
}
