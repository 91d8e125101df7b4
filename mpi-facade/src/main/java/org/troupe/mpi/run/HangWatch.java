package org.troupe.mpi.run;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.troupe.mpi.fabric.BlockedCall;
import org.troupe.mpi.fabric.Fabric;

/**
 * In a JVM that runs ranks: every half second, which of its ranks have been blocked in an MPI call for a second or
 * more ({@link Fabric#blockedCalls}), told to {@code sink} when that changes (an empty list: no longer). Reads the
 * waits the fabric keeps anyway, so the message paths pay nothing for it. A daemon thread; stops with
 * {@link #close}.
 */
final class HangWatch implements AutoCloseable {
    static final long BLOCKED_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long PERIOD_MILLIS = 500;

    /** Where the calls a rank is blocked in go. */
    interface Sink {
        void blocked(int rank, List<BlockedCall> calls);
    }

    private final Thread thread;
    private volatile boolean closed;

    /** @param ranks the world ranks this JVM runs; @param afterEach run after each look (a check of the report) */
    HangWatch(final Fabric fabric, final int[] ranks, final Sink sink, final Runnable afterEach) {
        thread = Thread.ofPlatform().daemon().name("mpi-hang-watch").start(() -> {
            final Map<Integer, List<BlockedCall>> told = new HashMap<>();
            while (!closed) {
                final Map<Integer, List<BlockedCall>> now = new HashMap<>();
                for (final BlockedCall c : fabric.blockedCalls(BLOCKED_NANOS)) {
                    now.computeIfAbsent(c.rank(), r -> new ArrayList<>()).add(c);
                }
                now.values().forEach(calls -> calls.sort(Comparator.comparingLong(BlockedCall::sinceNanos)));
                for (final int r : ranks) {
                    final List<BlockedCall> calls = now.getOrDefault(r, List.of());
                    if (!calls.equals(told.getOrDefault(r, List.of()))) {
                        told.put(r, calls);
                        sink.blocked(r, calls);
                    }
                }
                afterEach.run();
                try {
                    Thread.sleep(PERIOD_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
