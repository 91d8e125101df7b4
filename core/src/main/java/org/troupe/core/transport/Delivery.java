package org.troupe.core.transport;

/**
 * Whether the current thread hands received frames to a link's handler, on any transport. What a handler sends is
 * an answer, and an answer must not wait for room on any link: two runtimes answering each other would each wait for
 * the other to read, and the thread may be the one that frees the room (an event loop of TCP links reads the
 * doorbells of shared-memory ones and drains their rings). Transports queue answers instead.
 */
public final class Delivery {
    private static final ThreadLocal<int[]> HANDLERS = ThreadLocal.withInitial(() -> new int[1]);

    private Delivery() {}

    /**
     * The count of handlers the calling thread runs (nested when a handler waits, and so reads), as an array a
     * transport increments around each hand-over, fetched once per read.
     */
    public static int[] handlers() {
        return HANDLERS.get();
    }

    /** Whether the calling thread runs a frame's handler: its sends are answers. */
    public static boolean inHandler() {
        return HANDLERS.get()[0] > 0;
    }
}
