package org.troupe.mpi.run;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.troupe.mpi.fabric.BlockedCall;
import org.troupe.mpi.fabric.Fabric;
import org.troupe.mpi.fabric.coll.Tags;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * What the ranks of a job are blocked in, as their JVMs say ({@link HangWatch}), and the report mpjrun prints when
 * every rank still running has been blocked in MPI for the time {@code -hangreport} gives: each rank's call, and,
 * where the pattern is certain, why none can go on (ranks waiting for each other in a cycle, for a rank that has
 * ended, or in different collectives of one communicator). Said once for a given hang; again when asked
 * ({@link #printNow}, on {@code kill -USR1}). Thread-safe.
 */
final class HangReport implements HangWatch.Sink {
    /** How long every rank must have been blocked before the report is printed, unless -hangreport says. */
    static final int DEFAULT_SECONDS = 30;
    /**
     * How long the ranks' state must stay the same before it is reported: three looks of their JVMs' watchers, so
     * that a rank that ended just after another's wait did (a master's last receive) is not taken for a hang.
     */
    private static final long SETTLED_NANOS = 3 * TimeUnit.MILLISECONDS.toNanos(500);

    private final int size;
    private final long afterNanos;
    private final PrintStream err;
    /** By rank: the calls it is blocked in, their start by this JVM's clock; absent if it is in none. */
    private final Map<Integer, List<BlockedCall>> blocked = new HashMap<>();

    private final Set<Integer> ended = new LinkedHashSet<>();
    /** The calls of the last hang reported, so that one hang is reported once. */
    private Map<Integer, List<BlockedCall>> reported;
    /** The hang about to be reported, once it has stayed the same since {@link #seenSince}. */
    private Map<Integer, List<BlockedCall>> seen;

    private int seenEnded;
    private long seenSince;

    /** @param afterSeconds how long every rank must have been blocked; 0 for never (on demand only) */
    HangReport(final int size, final int afterSeconds, final PrintStream err) {
        this.size = size;
        this.afterNanos = TimeUnit.SECONDS.toNanos(afterSeconds);
        this.err = err;
    }

    /** Rank {@code rank} is blocked in {@code calls} now (none: it is not). */
    @Override
    public synchronized void blocked(final int rank, final List<BlockedCall> calls) {
        if (calls.isEmpty() || ended.contains(rank)) { // a call seen as its rank ended is no longer a wait
            blocked.remove(rank);
        } else {
            blocked.put(rank, List.copyOf(calls));
        }
    }

    /** Whether every rank still running has been blocked for {@code nanos} (0: never said unasked). */
    private boolean allBlockedFor(final long nanos, final long nowNanos) {
        if (nanos == 0 || blocked.isEmpty() || blocked.size() + ended.size() < size) {
            return false;
        }
        for (final List<BlockedCall> calls : blocked.values()) {
            for (final BlockedCall c : calls) {
                if (nowNanos - c.sinceNanos() < nanos) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The ranks' JVM has looked at them again: a hang may be complete. */
    @Override
    public void looked() {
        check(System.nanoTime());
    }

    /** Rank {@code rank} has ended: it will call nothing more. */
    synchronized void ended(final int rank) {
        ended.add(rank);
        blocked.remove(rank);
    }

    /** Prints the report if every rank still running has been blocked long enough, and this hang was not said. */
    synchronized void check(final long nowNanos) {
        if (!allBlockedFor(afterNanos, nowNanos) || blocked.equals(reported)) {
            seen = null;
            return;
        }
        if (!blocked.equals(seen) || ended.size() != seenEnded) {
            seen = Map.copyOf(blocked);
            seenEnded = ended.size();
            seenSince = nowNanos;
            return;
        }
        if (nowNanos - seenSince < SETTLED_NANOS) {
            return;
        }
        reported = seen;
        print(
                "every rank still running has been blocked in MPI for " + TimeUnit.NANOSECONDS.toSeconds(afterNanos)
                        + " s or more (-hangreport):",
                nowNanos);
    }

    /** Stops printing the report on a signal ({@link #onSignal}). */
    interface OnDemand extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Prints {@code report} on {@code kill -USR1} of this JVM until closed; nothing where the platform has no such
     * signal for a JVM to handle. (SIGQUIT, which mpirun users might try, is the JVM's own: its thread dump.)
     */
    static OnDemand onSignal(final HangReport report) {
        try {
            final Signal usr1 = new Signal("USR1");
            final SignalHandler previous = Signal.handle(usr1, s -> report.printNow(System.nanoTime()));
            return () -> Signal.handle(usr1, previous);
        } catch (IllegalArgumentException e) { // no SIGUSR1 here, or the JVM uses it
            return () -> {};
        }
    }

    /** Prints what each rank is blocked in now, as asked. */
    synchronized void printNow(final long nowNanos) {
        print("what the ranks are blocked in now (calls of a second or more):", nowNanos);
    }

    private void print(final String title, final long nowNanos) {
        for (final String line : lines(title, nowNanos)) {
            err.println("mpjrun: " + line);
        }
        err.flush();
    }

    /** The report: its title, a line a rank, then what is certain of the hang. */
    List<String> lines(final String title, final long nowNanos) {
        final List<String> lines = new ArrayList<>();
        lines.add(title);
        for (int r = 0; r < size; r++) {
            final List<BlockedCall> calls = blocked.get(r);
            if (ended.contains(r)) {
                lines.add("  rank " + r + ": ended");
            } else if (calls == null) {
                lines.add("  rank " + r + ": in no MPI call (computing, or in one for less than a second)");
            } else {
                for (final BlockedCall c : calls) {
                    lines.add("  rank " + r + ": " + describe(c) + ", for "
                            + TimeUnit.NANOSECONDS.toSeconds(nowNanos - c.sinceNanos()) + " s");
                }
            }
        }
        lines.addAll(diagnosis());
        return lines;
    }

    /**
     * The step of a collective a call is in, and which of its communicator's steps it is, from 1: "Bcast (collective
     * step #3)". A collective of the program may run as several steps (Allreduce as a Reduce, then a Bcast).
     */
    private static String collective(final BlockedCall c) {
        return Tags.name(c.tag() & 0xF) + " (collective step #" + ((c.tag() >>> 4) + 1) + ")";
    }

    /** A call in a line: "Recv from rank 1, tag 0, 5 elements, on COMM_WORLD". */
    static String describe(final BlockedCall c) {
        if (c.inCollective()) {
            return collective(c) + " on " + c.communicator() + ", "
                    + (c.call() == BlockedCall.Call.SEND ? "sending to" : "receiving from") + " rank " + c.peer();
        }
        final String from = c.peer() == Fabric.ANY_SOURCE ? "any rank" : "rank " + c.peer();
        final String tagged = c.tag() == Fabric.ANY_TAG ? "any tag" : "tag " + c.tag();
        return switch (c.call()) {
            case RECV ->
                "Recv from " + from + ", " + tagged + ", " + c.elements() + " elements, on " + c.communicator();
            case SEND ->
                "Send to rank " + c.peer() + ", " + tagged + ", " + c.elements() + " elements, on " + c.communicator()
                        + " (waiting for its receive)";
            case PROBE -> "Probe for " + from + ", " + tagged + ", on " + c.communicator();
            case ANY ->
                "Waitany or Waitsome over several requests (the first with " + from + ", " + tagged + ", on "
                        + c.communicator() + ")";
        };
    }

    /** What is certain: a cycle of ranks waiting for each other, a wait for an ended rank, mismatched collectives. */
    private List<String> diagnosis() {
        final List<String> found = new ArrayList<>();
        final Map<Integer, Integer> waitsFor = new TreeMap<>(); // a rank blocked in one call on one peer
        for (final Map.Entry<Integer, List<BlockedCall>> e : blocked.entrySet()) {
            final List<BlockedCall> calls = e.getValue();
            final BlockedCall only = calls.getFirst();
            if (calls.size() == 1 && only.peer() != Fabric.ANY_SOURCE && only.call() != BlockedCall.Call.ANY) {
                waitsFor.put(e.getKey(), only.peer());
            }
        }
        for (final Map.Entry<Integer, Integer> e : waitsFor.entrySet()) {
            if (ended.contains(e.getValue())) {
                found.add(
                        "rank " + e.getKey() + " waits for rank " + e.getValue() + ", which has ended: it never will");
            }
        }
        final Set<Integer> inCycles = new LinkedHashSet<>();
        for (final int start : waitsFor.keySet()) {
            final List<Integer> path = new ArrayList<>();
            Integer at = start;
            while (at != null && !path.contains(at) && !inCycles.contains(at)) {
                path.add(at);
                at = waitsFor.get(at);
            }
            if (at != null && path.contains(at)) {
                final List<Integer> cycle = path.subList(path.indexOf(at), path.size());
                inCycles.addAll(cycle);
                final StringBuilder s = new StringBuilder("ranks ");
                for (final int r : cycle) {
                    s.append(r).append(" -> ");
                }
                found.add(s.append(at)
                        .append(" each wait for the next, in calls only the next could complete: a deadlock")
                        .toString());
            }
        }
        found.addAll(mismatchedCollectives());
        return found;
    }

    /**
     * Ranks of one communicator blocked at the same step of its collectives, but in steps of different kinds: they
     * did not call the same collectives in the same order. (Ranks at different steps may only be behind.)
     */
    private List<String> mismatchedCollectives() {
        final Map<String, Map<String, List<Integer>>> byStep = new TreeMap<>();
        for (final Map.Entry<Integer, List<BlockedCall>> e : blocked.entrySet()) {
            for (final BlockedCall c : e.getValue()) {
                if (c.inCollective()) {
                    byStep.computeIfAbsent(
                                    c.communicator() + ", collective step #" + ((c.tag() >>> 4) + 1),
                                    k -> new TreeMap<>())
                            .computeIfAbsent(Tags.name(c.tag() & 0xF), k -> new ArrayList<>())
                            .add(e.getKey());
                }
            }
        }
        final List<String> found = new ArrayList<>();
        for (final Map.Entry<String, Map<String, List<Integer>>> e : byStep.entrySet()) {
            if (e.getValue().size() > 1) {
                final List<String> parts = new ArrayList<>();
                e.getValue().forEach((kind, ranks) -> parts.add(JobReport.ranks(ranks) + " in " + kind));
                found.add("on " + e.getKey() + ", the ranks are in different collectives (" + String.join("; ", parts)
                        + "): every rank must call the same collectives in the same order");
            }
        }
        return found;
    }
}
