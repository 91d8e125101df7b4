package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.util.MapReferenceResolver;
import java.util.Set;

/**
 * Tracks references for every class in a message that asked for it, and for the configured classes in every
 * message. Which of the two applies is switched per message by {@link SessionKryo}.
 */
final class SessionReferenceResolver extends MapReferenceResolver {
    private final Set<Class<?>> alwaysTracked;
    private boolean trackAll;

    SessionReferenceResolver(final Set<Class<?>> alwaysTracked) {
        this.alwaysTracked = alwaysTracked;
    }

    void trackAll(final boolean on) {
        this.trackAll = on;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public boolean useReferences(final Class type) {
        return super.useReferences(type) && (trackAll || alwaysTracked.contains(type));
    }
}
