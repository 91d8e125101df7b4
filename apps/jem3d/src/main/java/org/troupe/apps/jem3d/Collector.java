package org.troupe.apps.jem3d;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The run's collector, an active object beside the application: it starts every subdomain together, gathers their
 * per-step energy (and errors, when sampled) and their final accounts, and pauses, resumes or stops the run.
 *
 * <p>A stop must end every subdomain after the same step, or a neighbour would wait for values that never come. So
 * the collector first pauses them all; each answers with the steps it has completed and stops at the end of the
 * step under way, at most one more. Once every answer is in, the run ends after the largest count plus one, which
 * no subdomain has passed.
 */
public class Collector {
    private Subdomain[] subdomains;
    private int planned;
    /**
     * The steps under way: a subdomain is at most one step ahead of a neighbour, so at most as many steps as there
     * are subdomains are unfinished at once. Their partial sums live in a ring of that size, indexed by step.
     */
    private int window;
    private double[] energyParts;
    private int[] energyCounts;
    private double[] errorPartsE;
    private double[] errorPartsH;
    private int[] errorCounts;
    /** The total energy after each completed step (index 0: step 1), grown as the steps complete. */
    private double[] energy = new double[1024];
    private final List<double[]> errors = new ArrayList<>();
    private int stepsDone;
    private double drift;
    private final List<SubdomainResult> results = new ArrayList<>();
    private String failure;
    private boolean paused;
    private boolean stopping;
    private int pauseAnswers;
    private int pausedMax;

    public Collector() {
    }

    /** Takes the run's subdomains, indexed by their block's number, and the steps planned. */
    public void attach(final Subdomain[] all, final int steps) {
        this.subdomains = all.clone();
        this.planned = steps;
        window = all.length + 2;
        energyParts = new double[window];
        energyCounts = new int[window];
        errorPartsE = new double[window];
        errorPartsH = new double[window];
        errorCounts = new int[window];
    }

    /** Starts every subdomain's time loop. */
    public void start() {
        for (Subdomain s : subdomains) {
            s.start();
        }
    }

    /** Subdomain {@code index} completed {@code step} with its energy share (and its squared errors, or NaN). */
    public void progress(final int index, final int step, final double energyShare, final double errorSquareE,
        final double errorSquareH) {
        if (step <= stepsDone || step > stepsDone + window) {
            failed(index, "subdomain " + index + " reported step " + step + " while the run had completed "
                + stepsDone + ": the subdomains are out of step");
            return;
        }
        int slot = step % window;
        energyParts[slot] += energyShare;
        energyCounts[slot]++;
        if (!Double.isNaN(errorSquareE)) {
            errorPartsE[slot] += errorSquareE;
            errorPartsH[slot] += errorSquareH;
            errorCounts[slot]++;
        }
        while (stepsDone < planned && energyCounts[(stepsDone + 1) % window] == subdomains.length) {
            complete((stepsDone + 1) % window);
        }
    }

    /** The step in {@code slot} is in from every subdomain: its totals are kept and the slot is freed. */
    private void complete(final int slot) {
        if (stepsDone == energy.length) {
            energy = Arrays.copyOf(energy, 2 * energy.length);
        }
        energy[stepsDone] = energyParts[slot];
        stepsDone++;
        drift = Math.max(drift, Math.abs(energy[stepsDone - 1] - energy[0]) / energy[0]);
        if (errorCounts[slot] == subdomains.length) {
            errors.add(new double[] {stepsDone, Math.sqrt(errorPartsE[slot]), Math.sqrt(errorPartsH[slot])});
        }
        energyParts[slot] = 0;
        energyCounts[slot] = 0;
        errorPartsE[slot] = 0;
        errorPartsH[slot] = 0;
        errorCounts[slot] = 0;
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
            pauseAnswers = 0;
            pausedMax = 0;
            for (Subdomain s : subdomains) {
                s.pause();
            }
        }
    }

    public void resume() {
        if (paused && !stopping) {
            paused = false;
            for (Subdomain s : subdomains) {
                s.resume();
            }
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

    /** A subdomain's answer to {@link Subdomain#pause()}: it had completed {@code steps} steps. */
    public void pausedAt(final int index, final int steps) {
        pauseAnswers++;
        pausedMax = Math.max(pausedMax, steps);
        stopWhenAllPaused();
    }

    private void stopWhenAllPaused() {
        if (stopping && pauseAnswers == subdomains.length) {
            planned = Math.min(planned, pausedMax + 1);
            for (Subdomain s : subdomains) {
                s.stopAt(planned);
                s.resume();
            }
            paused = false;
        }
    }

    public RunStatus status() {
        return new RunStatus(stepsDone, planned, drift, results.size(), subdomains.length, paused, failure);
    }

    /** The subdomains' accounts, by index; complete once {@link RunStatus#isOver()}. */
    public List<SubdomainResult> results() {
        List<SubdomainResult> sorted = new ArrayList<>(results);
        sorted.sort((a, b) -> Integer.compare(a.index(), b.index()));
        return sorted;
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
