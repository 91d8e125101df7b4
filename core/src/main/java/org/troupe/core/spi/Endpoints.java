package org.troupe.core.spi;

/**
 * The endpoints of one runtime: open one, or find one of this runtime or another by name. A runtime hands out its
 * own ({@code TroupeRuntime.endpoints()}).
 */
public interface Endpoints {

    /** Opens an endpoint called {@code name} (unique among the open ones of this runtime) that {@code handler} serves. */
    Endpoint open(String name, EndpointHandler handler);

    /**
     * The open endpoint called {@code name}: of this runtime for a plain name, of the runtime listening at
     * {@code host:port} for {@code troupe://host:port/name} (which links to it if needed).
     *
     * @throws org.troupe.core.exceptions.TroupeException if there is no such open endpoint
     */
    EndpointAddress lookup(String name);
}
