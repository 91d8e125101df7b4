package org.troupe.core.metrics;

import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
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
     * reported and served with the runtime's. A registry added to it (Prometheus, JMX: what a launcher's monitor
     * does) publishes them all.
     */
    CompositeMeterRegistry registry();

    /** The name of this runtime's host, as its reports give it. */
    String host();

    /** This runtime's meters now, as a report of its own (what a node JVM sends its launcher). */
    MetricsReport snapshot();

    /** The latest report of each runtime reporting here and still linked, oldest runtime first. */
    List<MetricsReport> reports();
}
