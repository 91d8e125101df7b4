package org.troupe.core;

import org.troupe.core.exceptions.TroupeException;
import org.troupe.core.internal.Body;
import org.troupe.core.internal.LocalRuntime;
import org.troupe.core.internal.RuntimeSettings;
import org.troupe.serialization.SerializationConfig;

/** What the remote layer may do with this JVM's runtime, on behalf of the runtimes linked to it. */
final class RemoteServices implements LocalRuntime {
    private final TroupeRuntime runtime;

    RemoteServices(final TroupeRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public String id() {
        return runtime.id();
    }

    @Override
    public RuntimeSettings settings() {
        return runtime.settings();
    }

    @Override
    public SerializationConfig wireConfig() {
        return runtime.wireConfig();
    }

    @Override
    public Body body(final long objectId) {
        return runtime.body(objectId);
    }

    /** Creates the object a peer asked for, if its class is allowed here and on this JVM's class path. */
    @Override
    public Object newActive(final String className, final Object[] args, final String nodeName) {
        if (!runtime.wireConfig().allowsClassName(className)) {
            throw new TroupeException("A peer asked to create a " + className + ", which is not allowed here; "
                + runtime.wireConfig().howToAllow(className));
        }
        final Node node = runtime.localNode(nodeName);
        final Class<?> type;
        try {
            type = Class.forName(className, false, TroupeRuntime.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new TroupeException("Class " + className + " is not on the class path of runtime " + id(), e);
        }
        return runtime.newActive(type, args, node);
    }

    @Override
    public Object registered(final String name) {
        return runtime.registered(name);
    }
}
