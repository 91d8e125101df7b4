/**
 * The portability interface between the runtime and the networks it runs on: links carrying framed messages.
 *
 * <p>A transport is a {@link org.troupe.core.transport.TransportProvider} found with {@link java.util.ServiceLoader}
 * and named by {@code troupe.core.transport}; the runtime gives it a
 * {@link org.troupe.core.transport.TransportSettings} and sees only {@link org.troupe.core.transport.Transport},
 * {@link org.troupe.core.transport.Link} and {@link org.troupe.core.transport.LinkHandler}. This package and the
 * transports import nothing of the runtime (the API, {@code internal}, {@code remote}, {@code proxy}): only
 * {@code org.troupe.core.spi} (for {@link org.troupe.core.spi.Progress}, which lets waiting threads read the links,
 * and {@link org.troupe.core.spi.HostAddresses}), the JDK and their own libraries.
 */
package org.troupe.core.transport;
