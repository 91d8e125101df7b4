/**
 * Jem3D: Maxwell's equations in a perfectly conducting unit cube, solved by a centred finite-volume scheme on
 * tetrahedra (each Cartesian cell split into six by the Kuhn split), distributed over a deployment's nodes as active
 * subdomains that exchange border values with their neighbours only. {@link org.troupe.apps.jem3d.Jem3dMain} is
 * the command line ({@code bin/jem3d}); {@link org.troupe.apps.jem3d.Jem3dRun} runs it from code.
 */
package org.troupe.apps.jem3d;
