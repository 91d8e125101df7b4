/**
 * What a runtime measures ({@link org.troupe.core.metrics.Metrics}: Micrometer meters of calls, links, active
 * objects, the JVM, and those the layers above add) and what the runtimes reporting to it last said
 * ({@link org.troupe.core.metrics.MetricsReport}): node JVMs send theirs to their launcher over the links they
 * already have. The names and tags are listed in the README; the settings ({@code troupe.metrics.*}) in
 * docs/CONFIGURATION.md.
 */
package org.troupe.core.metrics;
