package org.troupe.core.internal;

import org.troupe.core.instrument.RuntimeMeters;
import org.troupe.serialization.SerializationConfig;

/** What the remote layer needs of this JVM's runtime. */
public interface LocalRuntime {
    String id();

    /** The settings the machinery reads. */
    RuntimeSettings settings();

    /** What may cross between runtimes: the settings' allowed classes and those the layers vouch for. */
    SerializationConfig wireConfig();

    /** What the runtime counts. */
    RuntimeMeters meters();

    /** The body of a live active object of this runtime, or null. */
    Body body(long objectId);

    /** Creates an active object on a node of this runtime; returns its proxy. */
    Object newActive(String className, Object[] args, String nodeName);

    /** The active object registered under {@code name} here, or null. */
    Object registered(String name);
}
