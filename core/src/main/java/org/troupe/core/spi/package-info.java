/**
 * What the layers built on the core (groups, the MPI facade, deployment) plug into; applications use
 * {@code org.troupe.core}. Interfaces and values only: it depends on no other package of the core but the leaf
 * ones ({@code exceptions}, {@code service}), and nothing in it starts a runtime; the runtime hands out the
 * implementations ({@code TroupeRuntime.calls()}, {@code proxies()}, {@code endpoints()}). Calls on many objects at
 * once ({@link org.troupe.core.spi.Calls}), the outcome behind a future
 * ({@link org.troupe.core.spi.Outcome}), generated proxies ({@link org.troupe.core.spi.Proxies}), waiting that
 * drives the transports ({@link org.troupe.core.spi.Spin}, {@link org.troupe.core.spi.Progress}), the classes a
 * layer sends ({@link org.troupe.core.spi.WireClasses}), proxies that cross the wire as a recipe
 * ({@link org.troupe.core.spi.PortableHandler}), endpoints for raw frames, and this host's addresses for a layer that
 * tells other hosts where to reach it ({@link org.troupe.core.spi.HostAddresses}). No internal type appears in these
 * signatures.
 */
package org.troupe.core.spi;
