package org.troupe.mpi.fabric;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What this JVM's ranks sent to and received from each rank (messages and bytes), the messages waiting unexpected
 * in their mailboxes, and the time they waited inside MPI calls: meters of the JVM's registry, which go to the
 * launcher with its reports. A pair's counters are registered when its first message passes; the hot paths then
 * bump two adders found by index.
 */
final class RankTraffic {
    static final RankTraffic NONE = new RankTraffic(null, null);

    private final MeterRegistry registry;
    /** By local rank: its counters towards each rank, made on first use; null rows for the ranks of other JVMs. */
    private final AtomicReferenceArray<Pair>[] sent;

    private final AtomicReferenceArray<Pair>[] received;
    private final LongAdder waits = new LongAdder();
    private final LongAdder waitNanos = new LongAdder();
    /** Which waits are timed: one in {@value #SAMPLE_EVERY}, by a count no one needs exact. */
    private int waitCount;

    /** Waits timed: one in this many, the total estimated from them (two clock reads a wait cost 3% of a ping-pong). */
    static final int SAMPLE_EVERY = 8;

    private static final class Pair {
        final LongAdder messages = new LongAdder();
        final LongAdder bytes = new LongAdder();
    }

    @SuppressWarnings("unchecked")
    private RankTraffic(final MeterRegistry registry, final Mailbox[] mailboxes) {
        this.registry = registry;
        final int size = mailboxes == null ? 0 : mailboxes.length;
        this.sent = new AtomicReferenceArray[size];
        this.received = new AtomicReferenceArray[size];
        for (int r = 0; r < size; r++) {
            if (mailboxes[r] != null) {
                sent[r] = new AtomicReferenceArray<>(size);
                received[r] = new AtomicReferenceArray<>(size);
                final Mailbox box = mailboxes[r];
                Gauge.builder("troupe.mpi.unexpected", box, Mailbox::unexpectedCount)
                        .tags("rank", String.valueOf(r))
                        .description("Messages that came before a receive matched them, waiting in the rank's mailbox")
                        .register(registry);
            }
        }
        if (registry != null) {
            FunctionTimer.builder(
                            "troupe.mpi.wait",
                            this,
                            t -> SAMPLE_EVERY * t.waits.sum(),
                            t -> SAMPLE_EVERY * t.waitNanos.sum(),
                            TimeUnit.NANOSECONDS)
                    .description("Time this JVM's ranks waited inside MPI calls (for messages, requests, barriers),"
                            + " estimated from one wait in " + SAMPLE_EVERY)
                    .register(registry);
        }
    }

    /** The traffic of the local ranks (those with a mailbox) of a job, counted in {@code registry}. */
    static RankTraffic of(final MeterRegistry registry, final Mailbox[] mailboxes) {
        return new RankTraffic(registry, mailboxes);
    }

    /** Local rank {@code from} sent a message of {@code bytes} to rank {@code to}. */
    void sent(final int from, final int to, final long bytes) {
        count(sent, "sent", from, to, bytes);
    }

    /** Local rank {@code to} was sent a message of {@code bytes} by rank {@code from}. */
    void received(final int to, final int from, final long bytes) {
        count(received, "received", to, from, bytes);
    }

    /** A rank of this JVM starts waiting inside an MPI call: the time to give {@link #waited}, 0 if not timed. */
    long waiting() {
        return registry != null && (waitCount++ & (SAMPLE_EVERY - 1)) == 0 ? System.nanoTime() : 0;
    }

    /** The wait that began at {@code began} ({@link #waiting}) ended. */
    void waited(final long began) {
        if (began != 0) {
            waits.increment();
            waitNanos.add(System.nanoTime() - began);
        }
    }

    private void count(
            final AtomicReferenceArray<Pair>[] table,
            final String way,
            final int rank,
            final int peer,
            final long bytes) {
        if (registry == null
                || rank < 0
                || rank >= table.length
                || table[rank] == null
                || peer < 0
                || peer >= table.length) {
            return;
        }
        Pair p = table[rank].get(peer);
        if (p == null) {
            p = register(table[rank], way, rank, peer);
        }
        p.messages.increment();
        p.bytes.add(bytes);
    }

    private synchronized Pair register(
            final AtomicReferenceArray<Pair> row, final String way, final int rank, final int peer) {
        final Pair known = row.get(peer);
        if (known != null) {
            return known;
        }
        final Pair p = new Pair();
        final Tags tags = Tags.of("rank", String.valueOf(rank), "peer", String.valueOf(peer));
        FunctionCounter.builder("troupe.mpi.messages." + way, p.messages, LongAdder::sum)
                .tags(tags)
                .description("Messages " + way + ", by rank and peer rank")
                .register(registry);
        FunctionCounter.builder("troupe.mpi.bytes." + way, p.bytes, LongAdder::sum)
                .tags(tags)
                .baseUnit("bytes")
                .description("Bytes of the messages " + way + ", by rank and peer rank")
                .register(registry);
        row.set(peer, p);
        return p;
    }
}
