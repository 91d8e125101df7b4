/** {@code bin/bench core}: calls on active objects, local and across JVMs, against executors, RMI and raw sockets. */
package org.troupe.bench.core;
