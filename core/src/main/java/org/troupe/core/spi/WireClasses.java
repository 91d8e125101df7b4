package org.troupe.core.spi;

import java.util.List;
import java.util.ServiceLoader;
import org.troupe.serialization.SerializationConfig;

/**
 * Classes a module layered on the core sends between runtimes for its own work (e.g. the groups' tree steps), so
 * that applications need not allow them. Implementations are found with {@link ServiceLoader}: a module on the class
 * path vouches for its own classes, the way it is trusted to run code anyway.
 */
public interface WireClasses {
    /** The classes that may cross the wire and be created by the runtime on a peer's request. */
    List<Class<?>> classes();

    /** {@code base} allowing, in addition, the classes of every {@code WireClasses} on the class path. */
    static SerializationConfig addTo(final SerializationConfig base, final Class<?>... more) {
        final SerializationConfig.Builder b = base.toBuilder();
        for (final Class<?> c : more) {
            b.allowClass(c);
        }
        for (final WireClasses w : ServiceLoader.load(WireClasses.class, WireClasses.class.getClassLoader())) {
            for (final Class<?> c : w.classes()) {
                b.allowClass(c);
            }
        }
        return b.build();
    }
}
