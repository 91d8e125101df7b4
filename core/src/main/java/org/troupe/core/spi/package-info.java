/** What modules layered on the core (groups, the MPI facade) plug into it; not for applications. */
package org.troupe.core.spi;
