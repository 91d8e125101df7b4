package org.troupe.mpi.fabric.coll;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.troupe.mpi.fabric.Fabric;
import org.troupe.mpi.fabric.Kind;
import org.troupe.mpi.fabric.Message;
import org.troupe.mpi.fabric.Operation;
import org.troupe.mpi.fabric.Receive;

/**
 * One rank of a job whose ranks are threads of this JVM, over the threads-mode {@link Fabric} (its matching engine,
 * with no MPI binding on top): the point-to-point operations the algorithms are written over. Every send is a
 * rendezvous, complete only once a receive has taken it, so that an algorithm that relied on a send being buffered
 * would hang here (and the test would time out) rather than pass.
 */
final class MemoryRanks implements PointToPoint<Items, RuntimeException> {
    /** The collectives' context of the job's only communicator. */
    private static final int CONTEXT = 1;
    /** How long a job may run before the harness aborts it and fails. */
    private static final long JOB_SECONDS = 60;

    private final Fabric fabric;
    private final int rank;
    private final Tags tags = new Tags();
    final Scratch scratch = new Scratch();

    private MemoryRanks(final Fabric fabric, final int rank) {
        this.fabric = fabric;
        this.rank = rank;
    }

    /** What each rank runs. */
    @FunctionalInterface
    interface Body {
        void run(MemoryRanks ranks) throws Exception;
    }

    /**
     * Runs {@code body} on {@code size} ranks, one thread each, and returns once all have returned. A rank that throws
     * aborts the job (the others' waits then fail) and its failure is thrown here; a job still running after
     * {@link #JOB_SECONDS} is aborted too. Every thread has ended when this returns or throws.
     */
    static void run(final int size, final Body body) throws InterruptedException {
        final Fabric fabric = new Fabric(size);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            final MemoryRanks ranks = new MemoryRanks(fabric, r);
            final Thread t = new Thread(
                    () -> {
                        try {
                            body.run(ranks);
                        } catch (Throwable e) {
                            failure.compareAndSet(
                                    null, new AssertionError("rank " + ranks.rank + " of " + size + ": " + e, e));
                            fabric.abort("rank " + ranks.rank + " failed");
                        }
                    },
                    "coll-test-rank-" + r);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(JOB_SECONDS);
        for (final Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        if (threads.stream().anyMatch(Thread::isAlive)) {
            failure.compareAndSet(
                    null,
                    new AssertionError("the ranks did not all finish within " + JOB_SECONDS
                            + " s: an algorithm waits for a message no rank sends"));
            fabric.abort("the test's time is up");
            for (final Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(10)); // an aborted job's waits end within a millisecond
            }
        }
        if (failure.get() != null) {
            throw (AssertionError) failure.get();
        }
    }

    /** The tag of this rank's next collective of {@code kind}: every rank calls the same ones in the same order. */
    int tag(final int kind) {
        return tags.next(kind);
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return fabric.size();
    }

    @Override
    public Pending<RuntimeException> send(
            final Object buf, final int offset, final int count, final Items type, final int dest, final int tag) {
        final Operation send = new Operation();
        fabric.deliver(
                rank,
                dest,
                new Message(CONTEXT, rank, tag, type.kind(), buf, offset, count * type.elements(), send, null),
                false);
        return () -> send.await(fabric);
    }

    @Override
    public Pending<RuntimeException> receive(
            final Object buf, final int offset, final int count, final Items type, final int source, final int tag) {
        final Receive r = new Receive(CONTEXT, source, tag, type.kind(), buf, offset, count * type.elements());
        fabric.post(rank, r);
        return () -> r.operation().await(fabric);
    }

    @Override
    public void copy(
            final Object from,
            final int fromOffset,
            final int count,
            final Items type,
            final Object to,
            final int toOffset,
            final int capacity,
            final Items toType) {
        final int n = count * type.elements();
        if (type.kind() != toType.kind() || n > capacity * toType.elements()) {
            throw new IllegalArgumentException(n + " " + type + " elements do not fit in " + capacity + " " + toType);
        }
        System.arraycopy(from, fromOffset, to, toOffset, n);
    }

    @Override
    public Kind kind(final Items type) {
        return type.kind();
    }

    @Override
    public int elements(final Items type) {
        return type.elements();
    }

    @Override
    public int extent(final Items type) {
        return type.elements();
    }
}
