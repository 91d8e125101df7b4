/**
 * Nozzle, a flow solver written against the MPI facade. Its issue has not landed yet.
 */
package org.troupe.apps.nozzle;
