import org.troupe.core.spi.WireClasses;
import org.troupe.core.transport.TransportProvider;
import org.troupe.core.transport.shm.AutoTransportProvider;
import org.troupe.core.transport.shm.ShmTransportProvider;
import org.troupe.core.transport.tcp.TcpTransportProvider;

/**
 * The Troupe core: runtime, nodes, transports, active objects, futures and requests.
 *
 * <p>Applications use {@code org.troupe.core}, {@code org.troupe.core.exceptions} and {@code org.troupe.core.service};
 * the layers above (groups, the MPI facade) plug into {@code org.troupe.core.spi}. The machinery ({@code internal}, {@code instrument}, {@code proxy}, {@code remote},
 * {@code transport}, {@code transport.tcp}, {@code transport.shm}) is exported to no one. The proxies and invokers of another module's types
 * are hidden classes of {@code org.troupe.core.proxy}: a named module whose classes are made active or proxied
 * exports or opens their package to this module, and they are public.
 */
module org.troupe.core {
    // CoreConfig and WireClasses carry SerializationConfig; CoreConfig is built from Commons Configuration.
    requires transitive org.troupe.serialization;
    requires org.objenesis;
    requires org.slf4j;
    // Metrics.registry() hands out Micrometer's registry, where the layers above add their meters.
    requires transitive micrometer.core;
    // Agrona's ring buffers carry the shared-memory transport's frames (an automatic module).
    requires org.agrona;
    // Netty 4.1 has no module descriptors; these are the automatic module names of its jars (netty-all is empty).
    requires io.netty.buffer;
    requires io.netty.codec;
    requires io.netty.common;
    requires io.netty.handler;
    requires io.netty.transport;

    exports org.troupe.core;
    exports org.troupe.core.exceptions;
    exports org.troupe.core.metrics;
    exports org.troupe.core.service;
    exports org.troupe.core.spi;

    // The runtime's own messages (requests, replies, remote references, failures, endpoint addresses) are written
    // by generated serializers, which reach their fields with handles from a private lookup.
    opens org.troupe.core.internal to
            org.troupe.serialization;
    opens org.troupe.core.remote to
            org.troupe.serialization;
    opens org.troupe.core.spi to
            org.troupe.serialization;

    uses TransportProvider;
    uses WireClasses;

    provides TransportProvider with
            TcpTransportProvider,
            AutoTransportProvider,
            ShmTransportProvider;
}
