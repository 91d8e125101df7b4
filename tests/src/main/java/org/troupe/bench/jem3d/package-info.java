/**
 * {@code bin/bench jem3d}: Jem3D's time loop sequentially and on two node JVMs (rate, parallel efficiency, heap),
 * and one border message as a flat array against a list of per-face records.
 */
package org.troupe.bench.jem3d;
