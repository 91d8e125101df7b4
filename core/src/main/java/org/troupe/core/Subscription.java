package org.troupe.core;

/** A registered listener; {@link #close()} removes it. */
public interface Subscription extends AutoCloseable {
    @Override
    void close();
}
