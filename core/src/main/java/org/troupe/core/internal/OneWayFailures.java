package org.troupe.core.internal;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.OneWayFailure;
import org.troupe.core.Subscription;

/** Where the failures of one-way calls made from this JVM end up: the log, and the application's listeners. */
public final class OneWayFailures {
    private static final Logger LOG = LoggerFactory.getLogger(OneWayFailures.class);
    private static final CopyOnWriteArrayList<Consumer<OneWayFailure>> LISTENERS = new CopyOnWriteArrayList<>();

    private OneWayFailures() {
    }

    public static Subscription listen(final Consumer<OneWayFailure> listener) {
        LISTENERS.add(listener);
        return () -> LISTENERS.remove(listener);
    }

    /** Reports, in the caller's JVM, that the one-way call {@code call} threw {@code cause}. */
    public static void report(final String call, final Throwable cause) {
        final OneWayFailure failure = new OneWayFailure(call, cause);
        LOG.warn("One-way call {} threw {}", call, cause.toString(), cause);
        for (final Consumer<OneWayFailure> l : LISTENERS) {
            try {
                l.accept(failure);
            } catch (RuntimeException e) {
                LOG.warn("A listener of one-way failures threw", e);
            }
        }
    }
}
