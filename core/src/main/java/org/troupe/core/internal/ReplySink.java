package org.troupe.core.internal;

/** Where the outcome of a served request goes: a local future, or a reply message to the caller's JVM. */
public interface ReplySink {
    void complete(Object value);

    void fail(Throwable failure);

    /**
     * Whether the caller awaits no reply: only a failure of the method goes back, and a request refused as its
     * object ends is not one (that happens to every request left at shutdown).
     */
    default boolean isOneWay() {
        return false;
    }

    /** A one-way call, {@code call} ("Worker.set on Worker#3@..."), threw {@code failure}: its caller hears of it. */
    default void failOneWay(final String call, final Throwable failure) {
        fail(failure);
    }

    /** The request starts being served now (for {@link HopTrace}). */
    default void serving() {}
}
