package org.troupe.apps.jem3d;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.troupe.core.exceptions.PeerFailedException;

/**
 * The run's collector, an active object beside the application: it starts every subdomain together, gathers their
 * per-step energy (and errors, when sampled) and their final accounts, and pauses, resumes or stops the run.
 *
 * <p>A stop must end every subdomain after the same step, or a neighbour would wait for values that never come. So
 * the collector first pauses them all; each answers with the steps it has completed and stops at the end of the
 * step under way, at most one more. Once every answer is in, the run ends after the largest count plus one, which
 * no subdomain has passed.
 *
 * <p>It also counts the checkpoint copies the keepers report: a checkpoint is complete when every subdomain's copies
 * of that step are kept. After a restart (a new epoch) a new collector carries the energies and errors of the steps
 * before the checkpoint it restarts from.
 */
public class Collector {
    private Subdomain[] subdomains;
    private int planned;
    private final int epoch;
    /** The copies a checkpoint keeps of each block: 2 (its node and a buddy), 1 on a single node. */
    private final int copies;
    /** Copies kept so far, by step. */
    private final Map<Integer, Integer> kept = new HashMap<>();
    /**
     * The complete checkpoints of this epoch not yet overtaken. One counts once the steps up to it are in too: a
     * keeper's report and a subdomain's progress come by different paths.
     */
    private final TreeSet<Integer> complete = new TreeSet<>();
    /**
     * The partial sums of the steps not yet in from every subdomain, by step: {energy, reports, E error, H error,
     * error reports}. Subdomains are at most a step apart from their neighbours, but their reports reach the
     * collector over different links, each with its own delay: so these are kept per step, not in a fixed window.
     */
    private final Map<Integer, double[]> partial = new HashMap<>();
    /** The total energy after each completed step (index 0: step 1), grown as the steps complete. */
    private double[] energy;

    private final List<double[]> errors = new ArrayList<>();
    private int stepsDone;
    private double drift;
    private final List<SubdomainResult> results = new ArrayList<>();
    private String failure;
    private boolean paused;
    private boolean stopping;
    private int pauseAnswers;
    private int pausedMax;
    /** The current round of pauses: answers to an earlier one are late and do not count. */
    private int pauseRound;

    public Collector() {
        this(0, 1, 0, new double[0], new double[0][]);
    }

    /**
     * A collector of epoch {@code epoch} of a run, whose checkpoints keep {@code copies} copies of each block, which
     * starts after step {@code firstStep} with the energies and errors the run had then.
     */
    public Collector(
            final int epoch,
            final int copies,
            final int firstStep,
            final double[] energiesBefore,
            final double[][] errorsBefore) {
        if (energiesBefore.length != firstStep) {
            throw new IllegalArgumentException("a run restarted after step " + firstStep
                    + " has that many energies, not " + energiesBefore.length);
        }
        this.epoch = epoch;
        this.copies = copies;
        this.stepsDone = firstStep;
        this.energy = Arrays.copyOf(energiesBefore, Math.max(1024, 2 * firstStep));
        this.errors.addAll(Arrays.asList(errorsBefore));
        for (int n = 0; n < firstStep; n++) {
            drift = Math.max(drift, Math.abs(energy[n] - energy[0]) / energy[0]);
        }
    }
    /** Takes the run's subdomains, indexed by their block's number, and the steps planned. */
    public void attach(final Subdomain[] all, final int steps) {
        this.subdomains = all.clone();
        this.planned = steps;
    }

    /** Starts every subdomain's time loop. */
    public void start() {
        each(Subdomain::start);
    }

    /**
     * Calls {@code call} on every subdomain. One whose JVM has just died throws before its loss is noticed; the run
     * handles the loss (it restarts every subdomain), so the others are called all the same.
     */
    private void each(final Consumer<Subdomain> call) {
        for (Subdomain s : subdomains) {
            try {
                call.accept(s);
            } catch (PeerFailedException e) {
                // the run sees the loss and restarts
            }
        }
    }

    /** Subdomain {@code index} completed {@code step} with its energy share (and its squared errors, or NaN). */
    public void progress(
            final int index,
            final int step,
            final double energyShare,
            final double errorSquareE,
            final double errorSquareH) {
        if (step <= stepsDone || step > planned) {
            failed(
                    index,
                    "subdomain " + index + " reported step " + step + " while the run had completed " + stepsDone
                            + " of " + planned + ": the subdomains are out of step");
            return;
        }
        double[] sums = partial.computeIfAbsent(step, k -> new double[5]);
        sums[0] += energyShare;
        sums[1]++;
        if (!Double.isNaN(errorSquareE)) {
            sums[2] += errorSquareE;
            sums[3] += errorSquareH;
            sums[4]++;
        }
        while (stepsDone < planned
                && partial.containsKey(stepsDone + 1)
                && partial.get(stepsDone + 1)[1] == subdomains.length) {
            complete(partial.remove(stepsDone + 1));
        }
    }

    /** The next step is in from every subdomain: its totals are kept. */
    private void complete(final double[] sums) {
        if (stepsDone == energy.length) {
            energy = Arrays.copyOf(energy, 2 * energy.length);
        }
        energy[stepsDone] = sums[0];
        stepsDone++;
        drift = Math.max(drift, Math.abs(energy[stepsDone - 1] - energy[0]) / energy[0]);
        if (sums[4] == subdomains.length) {
            errors.add(new double[] {stepsDone, Math.sqrt(sums[2]), Math.sqrt(sums[3])});
        }
    }

    /** A keeper holds block {@code index}'s copy after {@code step} of {@code epoch} (one of an earlier is late). */
    public void kept(final int epoch, final int index, final int step) {
        if (epoch != this.epoch) {
            return;
        }
        if (kept.merge(step, 1, Integer::sum) == copies * subdomains.length) {
            kept.remove(step);
            complete.add(step);
            Integer usable = complete.floor(stepsDone);
            if (usable != null) {
                complete.headSet(usable).clear();
            }
        }
    }

    public void finished(final SubdomainResult result) {
        results.add(result);
    }

    public void failed(final int index, final String why) {
        if (failure == null) {
            failure = why;
        }
    }

    /** Pauses every subdomain at the end of its current step. */
    public void pause() {
        if (!paused) {
            paused = true;
            pauseRound++;
            pauseAnswers = 0;
            pausedMax = 0;
            int round = pauseRound;
            each(s -> s.pause(round));
        }
    }

    public void resume() {
        if (paused && !stopping) {
            paused = false;
            each(Subdomain::resume);
        }
    }

    /** Ends the run early, every subdomain after the same step; the report then covers the steps made. */
    public void stop() {
        if (stopping) {
            return;
        }
        stopping = true;
        pause();
        stopWhenAllPaused();
    }

    /** A subdomain's answer to {@link Subdomain#pause(int)}: it had completed {@code steps} steps. */
    public void pausedAt(final int index, final int steps, final int round) {
        if (round != pauseRound) {
            return;
        }
        pauseAnswers++;
        pausedMax = Math.max(pausedMax, steps);
        stopWhenAllPaused();
    }

    private void stopWhenAllPaused() {
        if (stopping && pauseAnswers == subdomains.length) {
            planned = Math.min(planned, pausedMax + 1);
            int last = planned;
            each(s -> {
                s.stopAt(last);
                s.resume();
            });
            paused = false;
        }
    }

    public RunStatus status() {
        return new RunStatus(
                stepsDone,
                planned,
                drift,
                results.size(),
                subdomains.length,
                paused,
                failure,
                Objects.requireNonNullElse(complete.floor(stepsDone), -1));
    }

    /** The subdomains' accounts, in the order they came; complete once {@link RunStatus#isOver()}. */
    public List<SubdomainResult> results() {
        return List.copyOf(results);
    }

    /** The total energy after each completed step, from step 1. */
    public double[] energies() {
        return Arrays.copyOf(energy, stepsDone);
    }

    /** Rows {step, E error, H error} for the steps where every subdomain measured its error. */
    public double[][] errors() {
        return errors.toArray(new double[0][]);
    }
}
