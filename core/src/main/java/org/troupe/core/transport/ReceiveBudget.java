package org.troupe.core.transport;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes all links of this JVM hold at once for frames still arriving, and their bound: one link's frame is bounded
 * by {@code troupe.serialization.maxMessageBytes}, and this bounds their sum, so that peers sending large frames on
 * several links at once (or holding them unfinished) cannot run the heap out. The heap is the JVM's, so the budget
 * is too, shared by every runtime in it. Thread-safe.
 */
public final class ReceiveBudget {
    /** Half the heap: room for the values the frames become, and for the rest of the program. */
    private static final long DEFAULT_BYTES = Runtime.getRuntime().maxMemory() / 2;

    private static final AtomicLong HELD = new AtomicLong();
    private static volatile long limit = DEFAULT_BYTES;

    private ReceiveBudget() {}

    /** Sets the bound ({@code troupe.core.maxReceivingBytes}); 0 for the default, half the heap. */
    public static void limit(final long bytes) {
        limit = bytes > 0 ? bytes : DEFAULT_BYTES;
    }

    public static long limit() {
        return limit;
    }

    /** The bytes held now. */
    public static long held() {
        return HELD.get();
    }

    /** Takes {@code bytes} more for a frame arriving; false, taking nothing, if that would pass the bound. */
    public static boolean take(final long bytes) {
        final long held = HELD.addAndGet(bytes);
        if (held > limit && bytes > 0) {
            HELD.addAndGet(-bytes);
            return false;
        }
        return true;
    }

    /** Gives back {@code bytes} taken before. */
    public static void give(final long bytes) {
        HELD.addAndGet(-bytes);
    }

    /** Why {@code link} cannot be given {@code bytes} more for the frame it is receiving. */
    public static String refusal(final String link, final long bytes) {
        return "the links of this JVM already hold " + (HELD.get() >> 20) + " MiB for frames still arriving, and "
                + link + " needs " + (bytes >> 20) + " MiB more, over the bound of " + (limit >> 20)
                + " MiB (troupe.core.maxReceivingBytes, half the heap by default): raise it with the heap (-Xmx),"
                + " or send smaller messages";
    }
}
