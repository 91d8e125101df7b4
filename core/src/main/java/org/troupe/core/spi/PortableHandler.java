package org.troupe.core.spi;

/**
 * A proxy handler of a layer above the core whose proxies can cross the wire: as the {@link Recipe} it gives,
 * from which the receiving runtime makes an equivalent proxy (a group crosses as its type and members).
 */
public interface PortableHandler extends CallHandler {
    /** The type the proxy has. */
    Class<?> type();

    /** What crosses instead of the proxy: an instance of a class allowed on the wire (see {@link WireClasses}). */
    Recipe recipe();

    /** Makes the proxy again on the receiving side. */
    interface Recipe {
        /** A proxy of {@code type} (already checked to be allowed here) equivalent to the one sent. */
        Object proxy(Class<?> type);
    }
}
