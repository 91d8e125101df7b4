/** What watching a run costs: the console's own CPU with a browser attached, on a run of 16 node JVMs. */
package org.troupe.bench.monitor;
