package org.troupe.core.internal;

import java.util.Arrays;

/**
 * Where the time of remote calls goes, for diagnosis: when switched on, each JVM stamps the hops of the calls it
 * sends or serves, by call id, into a ring of the last {@value #CALLS} calls. Both JVMs of a link run on one host
 * in a benchmark, whose monotonic clock they share, so a caller's and a server's stamps of one call compare. Off
 * by default: a stamp is then one volatile read.
 */
public final class HopTrace {
    /** The hops of a call, in order; the caller stamps 0, 1, 7, 8 and 9, the serving JVM 2 to 6. */
    public enum Hop {
        CALLED,
        WRITTEN,
        READ,
        DECODED,
        SERVING,
        RETURNED,
        REPLY_WRITTEN,
        REPLY_READ,
        SETTLED,
        RESUMED
    }

    private static final int CALLS = 1 << 16;
    private static final int HOPS = Hop.values().length;
    private static final int STRIDE = HOPS + 1;
    private static volatile boolean on;
    private static final long[] STAMPS = new long[CALLS * STRIDE];
    private static final ThreadLocal<long[]> LAST_CALL = ThreadLocal.withInitial(() -> new long[1]);

    private HopTrace() {}

    /** Starts stamping, forgetting earlier stamps. */
    public static synchronized void start() {
        Arrays.fill(STAMPS, 0);
        on = true;
    }

    public static void stop() {
        on = false;
    }

    public static boolean isOn() {
        return on;
    }

    /** Stamps {@code hop} of call {@code callId} now; the caller's {@link Hop#CALLED} also makes it its last call. */
    public static void stamp(final long callId, final Hop hop) {
        if (!on || callId == 0) {
            return;
        }
        final int slot = (int) (callId & (CALLS - 1)) * STRIDE;
        if (hop == Hop.CALLED) {
            STAMPS[slot] = callId;
            LAST_CALL.get()[0] = callId;
        } else if (hop == Hop.READ) {
            STAMPS[slot] = callId; // the serving JVM's first stamp of the call
        }
        STAMPS[slot + 1 + hop.ordinal()] = System.nanoTime();
    }

    /** Stamps {@link Hop#RESUMED} of the last call this thread made: its caller has the result in hand. */
    public static void resumed() {
        if (on) {
            stamp(LAST_CALL.get()[0], Hop.RESUMED);
        }
    }

    /** The id of the last remote call this thread made while stamping was on. */
    public static long lastCall() {
        return LAST_CALL.get()[0];
    }

    /** The stamps of call {@code callId} (0 for a hop not stamped here), or null if the ring no longer has it. */
    public static long[] stamps(final long callId) {
        final int slot = (int) (callId & (CALLS - 1)) * STRIDE;
        if (STAMPS[slot] != callId) {
            return null;
        }
        final long[] hops = new long[HOPS];
        System.arraycopy(STAMPS, slot + 1, hops, 0, HOPS);
        return hops;
    }
}
