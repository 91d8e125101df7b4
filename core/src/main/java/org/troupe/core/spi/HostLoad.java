package org.troupe.core.spi;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether this host has more runnable threads than cores, read from the kernel's count of runnable threads
 * ({@code /proc/loadavg}'s fourth field, which counts every process's, this JVM's spinners among them). A waiter that
 * spins on such a host holds a core that the thread it waits for may need, and a thread woken from a park is
 * usually run before busy ones: so it should park at once. Read at most once per {@value #REFRESH_NANOS} ns, by
 * whichever waiter asks first (one positional read of a small kernel file), and smoothed so that a passing
 * thread (a compiler, an event loop) does not flip it. Never crowded where the file does not exist.
 */
final class HostLoad {
    static final int CORES = Runtime.getRuntime().availableProcessors();
    /**
     * Crowded when the smoothed count exceeds the cores by more than this: both ends of an exchange spinning and
     * passing threads (an event loop, a compiler, a neighbour's short job) are a normal idle host's. With 1, a 1 B
     * ping-pong of ranks as threads took 1-4.8 us beside a neighbour's build instead of 0.4 us; with 2, 0.4 us, and
     * still parked at once beside two busy threads per core.
     */
    private static final double SLACK = 2.0;

    private static final long REFRESH_NANOS = 1_000_000;
    /** The weight of a new reading in the smoothed count. */
    private static final double WEIGHT = 0.25;

    /**
     * Not a {@code FileChannel}: that one closes for good when a thread whose interrupt is set reads it, and a waiter
     * may well be interrupted; after it, every reading would fail and the host's state stay as it last was.
     */
    private static final RandomAccessFile LOADAVG = open();

    private static final byte[] LINE = new byte[128];
    private static final AtomicBoolean READING = new AtomicBoolean();
    private static volatile long readAt = System.nanoTime() - REFRESH_NANOS;
    private static double smoothed;
    private static volatile boolean crowded;

    private HostLoad() {}

    private static RandomAccessFile open() {
        try {
            return new RandomAccessFile("/proc/loadavg", "r");
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /** Whether more threads are runnable than the host has cores (as of the last reading, at most 1 ms old). */
    static boolean crowded() {
        final long now = System.nanoTime();
        if (LOADAVG != null && now - readAt >= REFRESH_NANOS && READING.compareAndSet(false, true)) {
            try {
                final int running = running();
                if (running > 0) {
                    smoothed += WEIGHT * (running - smoothed);
                    crowded = smoothed > CORES + SLACK;
                }
                readAt = System.nanoTime();
            } finally {
                READING.set(false);
            }
        }
        return crowded;
    }

    /** The runnable threads now, or 0 if the file cannot be read; by one thread at a time. */
    static int running() {
        try {
            if (LOADAVG == null) {
                return 0;
            }
            LOADAVG.seek(0); // the kernel makes the line anew at each read from the start
            final int n = LOADAVG.read(LINE);
            return n > 0 ? parseRunning(LINE, n) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** The runnable count of a {@code /proc/loadavg} line ("0.52 0.58 0.59 3/812 4242"), or 0 if it has none. */
    static int parseRunning(final byte[] line, final int length) {
        int field = 0;
        int i = 0;
        while (i < length && field < 3) {
            if (line[i++] == ' ') {
                field++;
            }
        }
        int n = 0;
        boolean digits = false;
        for (; i < length && line[i] >= '0' && line[i] <= '9'; i++) {
            n = n * 10 + (line[i] - '0');
            digits = true;
        }
        return digits && i < length && line[i] == '/' ? n : 0;
    }
}
