package org.troupe.core.transport;

/**
 * Which threads are running a frame's handler. Such a thread holds the reading of its link (a handler runs on
 * whichever thread reads the link), so it must not wait for anything that link brings: a reply it waited for
 * would be read by nobody. Transports count their handlers here; user code that a frame triggers (a future's
 * callback) runs elsewhere when it would run on such a thread.
 */
public final class HandlerThreads {
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    private HandlerThreads() {
    }

    /**
     * This thread's count of the handlers it is running (nested when a handler waits, and so reads): a transport
     * increments {@code [0]} around each handler. The array is the thread's own: keep it, not the count.
     */
    public static int[] depth() {
        return DEPTH.get();
    }

    /** Whether this thread is running a frame's handler. */
    public static boolean handlingFrame() {
        return DEPTH.get()[0] > 0;
    }

    /**
     * Runs {@code task} now, or, when this thread is running a frame's handler, on a virtual thread of its own: the
     * task may then call active objects and wait for their replies.
     */
    public static void runWhereItMayWait(final Runnable task) {
        if (handlingFrame()) {
            Thread.ofVirtual().name("troupe-callback").start(task);
        } else {
            task.run();
        }
    }
}
