package org.troupe.serialization.internal;

import com.esotericsoftware.kryo.util.MapReferenceResolver;
import java.util.Arrays;
import java.util.Set;

/**
 * Tracks references for every class in a message that asked for it, and for the configured classes in every
 * message. Which of the two applies is switched per message by {@link SessionKryo}.
 */
final class SessionReferenceResolver extends MapReferenceResolver {
    /** Up to this many objects written in a message are forgotten one by one; more, and the table is cleared. */
    private static final int FORGET_ONE_BY_ONE = 16;

    private final Set<Class<?>> alwaysTracked;
    private boolean trackAll;
    /**
     * The objects written since the last reset, while there are few: most messages hold a handful, and removing
     * them costs less than clearing the whole table, which Kryo does after every message (a local call copies
     * two messages, and that clearing was a fifth of their cost).
     */
    private final Object[] written = new Object[FORGET_ONE_BY_ONE];

    private int writtenCount;

    SessionReferenceResolver(final Set<Class<?>> alwaysTracked) {
        this.alwaysTracked = alwaysTracked;
    }

    void trackAll(final boolean on) {
        this.trackAll = on;
    }

    boolean tracksAll() {
        return trackAll;
    }

    @Override
    public int addWrittenObject(final Object object) {
        if (writtenCount < FORGET_ONE_BY_ONE) {
            written[writtenCount] = object;
        }
        writtenCount++;
        return super.addWrittenObject(object);
    }

    @Override
    public void reset() {
        if (writtenCount > FORGET_ONE_BY_ONE || readObjects.size() > FORGET_ONE_BY_ONE) {
            super.reset(); // which also shrinks what a large message grew
            Arrays.fill(written, null);
        } else {
            for (int i = 0; i < writtenCount; i++) {
                writtenObjects.remove(written[i], -1);
                written[i] = null;
            }
            readObjects.clear();
        }
        writtenCount = 0;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public boolean useReferences(final Class type) {
        return super.useReferences(type) && (trackAll || alwaysTracked.contains(type));
    }
}
