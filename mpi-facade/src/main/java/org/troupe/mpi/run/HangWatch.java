package org.troupe.mpi.run;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.troupe.mpi.fabric.BlockedCall;
import org.troupe.mpi.fabric.Fabric;

/**
 * In a JVM that runs ranks: every half second, which of its ranks have been blocked in MPI for a second or more
 * ({@link Fabric#blockedCalls}), told to {@code sink} when that changes (an empty list: no longer). A rank is blocked
 * when every live thread of it ({@code threadsOf}) waits in a call: one whose other thread computes is not. Reads
 * the waits the fabric keeps anyway, so the message paths pay nothing for it. A daemon thread; stops with
 * {@link #close}.
 */
final class HangWatch implements AutoCloseable {
    static final long BLOCKED_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long PERIOD_MILLIS = 500;

    /** Where the calls a rank is blocked in go. */
    interface Sink {
        void blocked(int rank, List<BlockedCall> calls);

        /** After each look, whatever it found. */
        default void looked() {}
    }

    private final Thread thread;
    private volatile boolean closed;

    /**
     * @param ranks the world ranks this JVM runs
     * @param threadsOf a rank's threads that count: its non-daemon threads
     */
    HangWatch(final Fabric fabric, final int[] ranks, final IntFunction<List<Thread>> threadsOf, final Sink sink) {
        thread = Thread.ofPlatform().daemon().name("mpi-hang-watch").start(() -> {
            final Map<Integer, List<BlockedCall>> told = new HashMap<>();
            while (!closed) {
                final Map<Thread, BlockedCall> waiting = fabric.blockedCalls(BLOCKED_NANOS);
                final Map<Integer, List<BlockedCall>> now = new HashMap<>();
                waiting.values()
                        .forEach(c -> now.computeIfAbsent(c.rank(), r -> new ArrayList<>())
                                .add(c));
                for (final int r : ranks) {
                    List<BlockedCall> calls = now.getOrDefault(r, List.of());
                    if (!calls.isEmpty()
                            && !threadsOf.apply(r).stream().allMatch(t -> !t.isAlive() || waiting.containsKey(t))) {
                        calls = List.of(); // a thread of it runs
                    }
                    calls = calls.stream()
                            .sorted(Comparator.comparingLong(BlockedCall::sinceNanos))
                            .toList();
                    if (!calls.equals(told.getOrDefault(r, List.of()))) {
                        told.put(r, calls);
                        sink.blocked(r, calls);
                    }
                }
                sink.looked();
                try {
                    Thread.sleep(PERIOD_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /** The live non-daemon threads of {@code group} and the groups in it. */
    static List<Thread> nonDaemonThreads(final ThreadGroup group) {
        final Thread[] threads = new Thread[group.activeCount() + 16];
        final int n = group.enumerate(threads, true);
        final List<Thread> found = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            if (!threads[i].isDaemon()) {
                found.add(threads[i]);
            }
        }
        return found;
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
