package org.troupe.core.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;

/**
 * The metrics of one runtime ({@code TroupeRuntime.metrics()}): its own meters, and the latest report of each
 * runtime that sends its own here (the node JVMs of a deployment, the ranks of an MPI job).
 */
public interface Metrics {
    /**
     * Whether this runtime counts ({@code troupe.metrics.enabled}): when not, its hot paths count nothing, its
     * registry holds no Troupe meter and it neither sends nor keeps reports.
     */
    boolean enabled();

    /**
     * This JVM's meters. Layers and applications add theirs here (registered once, read when reported): they are
     * reported and served with the runtime's.
     */
    MeterRegistry registry();

    /** The latest report of each runtime reporting here and still linked, oldest runtime first. */
    List<MetricsReport> reports();
}
