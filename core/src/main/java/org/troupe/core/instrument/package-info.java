/**
 * The runtime's meters: counters the hot paths bump (plain adders, read only when a meter is read), the Micrometer
 * registry they are read through, and the reports node JVMs send their launcher. What applications see of it is
 * {@code org.troupe.core.metrics}.
 */
package org.troupe.core.instrument;
