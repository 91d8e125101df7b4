package org.troupe.apps.nozzle;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.troupe.core.TroupeRuntime;

/**
 * Rank 0's iteration and relative residual as meters of its JVM's runtime, if one runs (a rank JVM, or mpjrun's
 * with a console): they reach mpjrun's console with the JVM's report, which draws the residual as it falls. Read
 * when reported; nothing is counted on the way. They stay until the JVM ends, with its last figures.
 */
final class ResidualMeter {
    private volatile double residual = Double.NaN;
    private volatile int iteration;

    private ResidualMeter(final MeterRegistry registry) {
        if (registry != null) {
            // held strongly: the registry's reference is weak, and the figures stay after the loop
            Gauge.builder("nozzle.residual", this, m -> m.residual)
                    .strongReference(true)
                    .description("The residual relative to its peak, at the latest look")
                    .register(registry);
            Gauge.builder("nozzle.iteration", this, m -> m.iteration)
                    .strongReference(true)
                    .description("Iterations done")
                    .register(registry);
        }
    }

    /** Meters in the running runtime's registry, or none if no runtime runs or metrics are off. */
    static ResidualMeter register() {
        return new ResidualMeter(TroupeRuntime.running()
                .filter(r -> r.metrics().enabled())
                .map(r -> (MeterRegistry) r.metrics().registry())
                .orElse(null));
    }

    void at(final int iterationsDone, final double relativeResidual) {
        iteration = iterationsDone;
        residual = relativeResidual;
    }
}
