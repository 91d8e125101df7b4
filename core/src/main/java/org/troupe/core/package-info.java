/**
 * The Troupe runtime: nodes, transports, active objects, futures and requests. This package is the application's
 * API ({@link org.troupe.core.TroupeRuntime}, {@link org.troupe.core.ActiveObjects}, {@link org.troupe.core.Futures},
 * {@link org.troupe.core.Node}); what it throws is in {@code exceptions}, how an active object serves its requests and
 * how its methods are called in {@code service}.
 *
 * <h2>The packages and their arrows</h2>
 *
 * <pre>
 *   org.troupe.core (API) -&gt; every package below
 *   remote                -&gt; internal, proxy, spi, transport
 *   internal              -&gt; proxy, spi
 *   proxy                 -&gt; spi
 *   transport.shm         -&gt; transport.tcp (its control links), transport, spi
 *   transport.tcp         -&gt; transport, spi
 *   transport             -&gt; spi
 *   spi                   -&gt; (the leaves only)
 *   exceptions, service   leaves: used by any of the above, use none of them
 * </pre>
 *
 * Arrows point one way ({@code ArchitectureTest} checks it): {@code internal} (bodies, futures, the runtime's
 * implementation {@code RuntimeCore}) knows neither the API nor {@code remote}; {@code remote} (links to other
 * runtimes) builds on {@code internal} and reaches transports through the {@code transport} SPI only; a transport
 * ({@code transport.tcp}) is written against {@code transport} and {@code spi} alone; {@code transport.shm} also
 * builds on {@code transport.tcp}, whose authenticated links set its rings up and carry its doorbells. {@code spi}
 * is what the layers above (groups, the MPI facade, deployment) plug into: interfaces and values, no runtime.
 *
 * <h2>The path of a call</h2>
 *
 * A call on an active object of this runtime: generated proxy ({@code proxy.ProxyGenerator}) -&gt;
 * {@code internal.StubHandler} -&gt; the body's queue ({@code internal.Body}) -&gt; the generated invoker on the
 * body's thread -&gt; the reply completes the caller's {@code internal.FutureState}. A call on an active object of
 * another runtime is drawn stage by stage, with the thread at each, in the {@code remote} package's documentation
 * ({@code core/src/main/java/org/troupe/core/remote/package-info.java}); the threads of the TCP transport are in
 * {@code transport/tcp/package-info.java}, those of shared-memory links in {@code transport/shm/package-info.java}.
 */
package org.troupe.core;
