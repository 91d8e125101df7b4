/**
 * Watching a run: the launcher's Prometheus endpoint and JMX beans, and its live web console (the deployment as a
 * tree, the JVMs' meters, the calls between them, and the panels applications fill). Launchers start a
 * {@link org.troupe.monitor.Monitor}; what it shows comes from the core's metrics and from its sources.
 */
module org.troupe.monitor {
    // The meters and the reports of node JVMs come from the core's metrics.
    requires transitive org.troupe.core;
    requires org.slf4j;
    // Jetty 12's core server: the console, the Prometheus endpoint and the event stream are plain handlers.
    requires org.eclipse.jetty.server;
    requires org.eclipse.jetty.http;
    requires org.eclipse.jetty.io;
    requires org.eclipse.jetty.util;
    // Micrometer's registries for Prometheus and JMX (automatic modules).
    requires micrometer.registry.prometheus;
    requires micrometer.registry.jmx;
    requires io.prometheus.metrics.model;
    requires java.management;

    exports org.troupe.monitor;
}
