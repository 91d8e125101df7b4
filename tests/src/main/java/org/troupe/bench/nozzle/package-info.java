/** The nozzle suite: Nozzle, the MPI flow solver, on several ranks as threads and as JVMs. */
package org.troupe.bench.nozzle;
