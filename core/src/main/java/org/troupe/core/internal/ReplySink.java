package org.troupe.core.internal;

/** Where the outcome of a served request goes: a local future, or a reply message to the caller's JVM. */
public interface ReplySink {
    void complete(Object value);

    void fail(Throwable failure);

    /** The request starts being served now (for {@link HopTrace}). */
    default void serving() {
    }
}
