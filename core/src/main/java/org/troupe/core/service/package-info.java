/**
 * How an active object serves its requests (the service API and the init, run and end hooks) and how its methods
 * are called ({@link org.troupe.core.service.CallMode}, {@link org.troupe.core.service.Immediate},
 * {@link org.troupe.core.service.ActiveClass}). A leaf package: it depends on no other package of the core but the
 * exceptions.
 */
package org.troupe.core.service;
