/**
 * Jem3D, a 3D Maxwell solver whose subdomains are active objects. Its issue has not landed yet.
 */
package org.troupe.apps.jem3d;
