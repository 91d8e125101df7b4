/**
 * Nozzle, a flow solver written against the MPI facade. It has no classes so far; the module fixes its place in
 * the build, above the MPI facade and deployment.
 */
package org.troupe.apps.nozzle;
