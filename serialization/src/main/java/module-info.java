/**
 * Troupe serialization: generated serializers on Kryo, the allow-list, and Troupe's settings ({@code org.troupe.config}).
 *
 * <p>A generated serializer reads and writes the fields of the class it serializes, so a named module whose classes
 * cross the wire (or are deep-copied between active objects) opens their packages to this module:
 * {@code opens p to org.troupe.serialization}. Without it, serializing such a class fails with a message that says
 * so. {@code org.troupe.serialization.internal} is exported to Kryo alone.
 */
module org.troupe.serialization {
    // TroupeInput and TroupeOutput extend Kryo's Input and Output, WireForm names Kryo's types.
    requires transitive com.esotericsoftware.kryo;
    // SerializationConfig.fromSettings and TroupeSettings take Commons Configuration's ImmutableConfiguration.
    requires transitive org.apache.commons.configuration2;
    requires org.objenesis;
    requires org.slf4j;
    // Kryo and Objenesis (automatic modules) use sun.misc.Unsafe and sun.reflect.ReflectionFactory: make sure
    // jdk.unsupported is resolved when Troupe runs on the module path.
    requires jdk.unsupported;

    exports org.troupe.serialization;
    exports org.troupe.config;
    // Kryo creates the bounded array serializer reflectively, one per array class (addDefaultSerializer by class).
    exports org.troupe.serialization.internal to
            com.esotericsoftware.kryo;
}
