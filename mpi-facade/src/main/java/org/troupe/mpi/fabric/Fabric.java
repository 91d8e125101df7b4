package org.troupe.mpi.fabric;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.troupe.core.spi.Spin;

/**
 * The ranks of one MPI job in one JVM and what connects them: a mailbox each, the communicator contexts handed out
 * so far, and whether the job was aborted. Shared by every rank (loaded once, by the launcher's class loader), while
 * the {@code mpi} classes are loaded once per rank.
 */
public final class Fabric {
    /** Matches any source rank, as {@code MPI.ANY_SOURCE}. */
    public static final int ANY_SOURCE = -2;
    /** Matches any tag, as {@code MPI.ANY_TAG}. */
    public static final int ANY_TAG = -2;
    /** Contexts of COMM_WORLD (point-to-point, collectives) and COMM_SELF; later communicators take the next ones. */
    public static final int WORLD_CONTEXT = 0;

    public static final int SELF_CONTEXT = 2;

    /** How messages reach the ranks of other JVMs. */
    public interface Remote {
        /**
         * Sends {@code m} from the rank {@code from} of this JVM to the rank {@code worldRank} of another JVM
         * ({@code eager}: its send completes now); returns the message if it may still be withdrawn, else null.
         */
        Message send(int from, int worldRank, Message m, boolean eager);

        /**
         * Asks to withdraw {@code m}, sent to {@code worldRank} of another JVM; whether it is withdrawn now (else its
         * send completes later, as cancelled if the other JVM withdraws it, or when a receive takes it).
         */
        boolean cancel(int worldRank, Message m);

        /** The job is aborted by a rank of this JVM: the others must stop too. */
        void abortAll(String why);

        /** The rank {@code worldRank} of this JVM has called MPI.Finalize: its JVM ending is no failure of it. */
        void finished(int worldRank);

        /** Frames received from other JVMs so far: a waiter spins while they keep coming, and parks in silence. */
        long arrivals();

        /**
         * Sends, on the calling thread (the application's, waiting in or testing a request), what this JVM's ranks
         * were cleared to send since; whether it sent any. {@link #wakeWaiters} is called when there is some.
         */
        boolean progress();
    }

    private final Mailbox[] mailboxes;
    private final Remote remote;
    /** The threads parked in {@link #await} now. */
    private final Set<Thread> waiters = ConcurrentHashMap.newKeySet();
    /** The waits that have parked at least once, until they end: what a report of blocked ranks reads. */
    private final Map<Thread, Waiting> parkedWaits = new ConcurrentHashMap<>();
    /** How long a waiter spins before it parks: set once, from this JVM's ranks and cores. */
    private Spin spin;

    private final AtomicInteger nextContext;
    /** Where this JVM's contexts end: in a job of JVMs each rank's JVM hands out its own range, so none collide. */
    private final int contextLimit;

    private volatile String abortedBecause;
    /** By sending rank of this JVM, then receiving rank: its eager bytes no receive has taken yet (with their cost). */
    private final AtomicLongArray[] eagerOut;

    /**
     * What a rank may have sent eagerly to another that no receive there has taken yet, in bytes, each message
     * counting {@link #MESSAGE_COST} more: past it, a standard send waits for its receive (as a large one does), so
     * that a fast sender cannot fill a slow receiver's memory with messages it has not asked for.
     */
    public static final long EAGER_CREDIT_BYTES = 8L << 20;
    /** What a message kept for a receive costs besides its data. */
    static final int MESSAGE_COST = 128;
    /** Where each rank of this JVM is: {@link #STARTED} MPI, {@link #FINALIZED} it, or neither (0). */
    private final AtomicIntegerArray finalized;

    private static final int STARTED = 1;
    private static final int FINALIZED = 2;
    /** The rank of this JVM that called Abort, or -1; and its error code. */
    private volatile int abortingRank = -1;

    private volatile int abortCode;

    private volatile long abortCalledAt;
    /** What the local ranks send, receive and wait: counted once {@link #countIn} is called. */
    private volatile RankTraffic traffic = RankTraffic.NONE;

    /** A job whose ranks are all in this JVM. */
    public Fabric(final int size) {
        if (size < 1) {
            throw new IllegalArgumentException("a job has at least one rank, not " + size);
        }
        mailboxes = new Mailbox[size];
        for (int i = 0; i < size; i++) {
            mailboxes[i] = new Mailbox();
        }
        remote = null;
        eagerOut = new AtomicLongArray[size];
        for (int i = 0; i < size; i++) {
            eagerOut[i] = new AtomicLongArray(size);
        }
        finalized = new AtomicIntegerArray(size);
        spin = Spin.fixed(spinNanos(size));
        nextContext = new AtomicInteger(4);
        contextLimit = Integer.MAX_VALUE - 1;
    }

    /** A job of {@code size} ranks of which this JVM holds {@code localRank}; {@code remote} reaches the others. */
    public Fabric(final int size, final int localRank, final Remote remote) {
        this(size, new int[] {localRank}, remote);
    }

    /**
     * A job of {@code size} ranks of which this JVM holds {@code localRanks}, consecutive (hybrid placement: the
     * ranks of one JVM reach each other through their mailboxes, as threads); {@code remote} reaches the others.
     */
    public Fabric(final int size, final int[] localRanks, final Remote remote) {
        if (localRanks.length == 0) {
            throw new IllegalArgumentException("a JVM of a job holds at least one rank");
        }
        for (int i = 0; i < localRanks.length; i++) {
            if (localRanks[i] != localRanks[0] + i || localRanks[i] < 0 || localRanks[i] >= size) {
                throw new IllegalArgumentException(
                        "ranks " + Arrays.toString(localRanks) + " of a job of " + size + ": not consecutive");
            }
        }
        mailboxes = new Mailbox[size];
        this.remote = remote;
        eagerOut = new AtomicLongArray[size];
        for (final int r : localRanks) {
            mailboxes[r] = new Mailbox();
            eagerOut[r] = new AtomicLongArray(size);
        }
        this.finalized = new AtomicIntegerArray(size);
        this.spin = Spin.fixed(spinNanos(localRanks.length));
        // Each JVM hands out contexts of the range of its ranks, so that none collide with another JVM's.
        final int range = ((Integer.MAX_VALUE - 4) / size) & ~1; // even: contexts come in pairs
        nextContext = new AtomicInteger(4 + localRanks[0] * range);
        contextLimit = 4 + (localRanks[localRanks.length - 1] + 1) * range;
    }

    /**
     * Spin this long before parking while the job's ranks have a core each (a message often comes within
     * microseconds, and waking a parked thread costs tens of them); barely at all when they outnumber the cores,
     * where a spinning rank would hold a core from the rank it waits for.
     */
    private static final long SPIN_NANOS = 200_000;

    private static final long OVERSUBSCRIBED_SPIN_NANOS = 2_000;
    /**
     * Counts what this JVM's ranks send, receive and wait in {@code registry}'s meters
     * ({@code troupe.mpi.*}): the launcher's console draws the job's traffic from them.
     */
    public void countIn(final MeterRegistry registry) {
        traffic = RankTraffic.of(registry, mailboxes);
    }

    /** A parked waiter looks again at least this often: for an aborted job, or for what no one signals. */
    private static final long PARK_NANOS = 1_000_000;

    /**
     * Waits until {@code done}: spins (reading the links of other JVMs as it goes, if the job has any) and yields as
     * {@link Spin} says (not while the host's cores are all taken), then parks, having told {@code parking} its thread
     * so that whoever makes it done can unpark it; spins again, and longer, while frames from other JVMs keep coming
     * (a large message's data: its reader is then this thread, not an event loop that hands each piece over). Throws
     * if the job is aborted meanwhile. Not cut short by an interrupt: the flag is set again on return.
     */
    public void await(final BooleanSupplier done, final Object blocker, final Consumer<Thread> parking) {
        if (done.getAsBoolean()) {
            return;
        }
        final Waiting w = new Waiting(done, remote);
        final Thread self = Thread.currentThread();
        boolean interrupted = false;
        final RankTraffic timed = traffic;
        final long began = timed.waiting();
        try {
            boolean spins = true;
            while (!done.getAsBoolean()) {
                checkNotAborted();
                if (progress()) { // data this JVM was cleared to send, maybe what the awaited message waits for
                    continue;
                }
                // Returns early when frames arrive, to spin anew: the wait is not idle. Else the event loops read
                // the links again (beforePark) while this thread parks.
                if (spins && spin.spinThenYield(w, Waiting::over)) {
                    continue;
                }
                parking.accept(self);
                if (w.since == 0) { // its first park: from now on a report may name it
                    w.parked(blocker);
                    parkedWaits.put(self, w);
                }
                waiters.add(self); // before progress(): a clearance that comes meanwhile either is sent or wakes it
                final boolean sent = progress();
                if (!sent && !done.getAsBoolean()) {
                    LockSupport.parkNanos(blocker, PARK_NANOS);
                    interrupted |= Thread.interrupted();
                }
                waiters.remove(self);
                spins = w.heardMore() || sent;
            }
        } finally {
            timed.waited(began);
            waiters.remove(self);
            if (w.since != 0) {
                parkedWaits.remove(self);
            }
            parking.accept(null);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Sends what this JVM's ranks were cleared to send by their receivers in other JVMs, on the calling thread; to
     * be called by every wait and test of a request, so that a message's data goes while its sender is in MPI.
     */
    public boolean progress() {
        return remote != null && remote.progress();
    }

    /**
     * The calls this JVM's threads have waited in for {@code atLeastNanos} or more, by thread, as far as their
     * operations say what they are ({@link Operation#describe}); read without stopping anyone, so a call may end as
     * it is read.
     */
    public Map<Thread, BlockedCall> blockedCalls(final long atLeastNanos) {
        final long now = System.nanoTime();
        final Map<Thread, BlockedCall> calls = new HashMap<>();
        parkedWaits.forEach((thread, w) -> {
            if (now - w.since >= atLeastNanos && w.blocker instanceof Operation op) {
                final BlockedCall c = op.blockedSince(w.since);
                if (c != null) {
                    calls.put(thread, c);
                }
            }
        });
        return calls;
    }

    /** Wakes the threads parked in {@link #await}: one of them sends the data just cleared ({@link #progress}). */
    void wakeWaiters() {
        for (final Thread t : waiters) {
            LockSupport.unpark(t);
        }
    }

    /** One waiter's state: what it waits for, and the frames from other JVMs it has heard of. */
    private static final class Waiting {
        private final BooleanSupplier done;
        private final Remote remote;
        private long heard;
        /** What it waits on, once it has parked (read by another thread, for a report). */
        volatile Object blocker;
        /** When it first parked; 0 until it has. */
        volatile long since;

        Waiting(final BooleanSupplier done, final Remote remote) {
            this.done = done;
            this.remote = remote;
            this.heard = remote == null ? 0 : remote.arrivals();
        }

        void parked(final Object on) {
            blocker = on;
            since = Math.max(1, System.nanoTime()); // never 0, which means it has not parked
        }

        /** Whether the wait is done, or more frames came (then they count as heard). */
        boolean over() {
            return done.getAsBoolean() || heardMore();
        }

        boolean heardMore() {
            if (remote == null) {
                return false;
            }
            final long arrived = remote.arrivals();
            if (arrived == heard) {
                return false;
            }
            heard = arrived;
            return true;
        }
    }

    /**
     * In a job of JVMs: {@code ranks} of the job's ranks run on this host (this one among them), so that a waiter
     * barely spins when they outnumber its cores. Before the program runs.
     */
    public void ranksOnThisHost(final int ranks) {
        spin = Spin.fixed(spinNanos(ranks));
    }

    private static long spinNanos(final int localRanks) {
        return localRanks > Runtime.getRuntime().availableProcessors() ? OVERSUBSCRIBED_SPIN_NANOS : SPIN_NANOS;
    }

    /**
     * Whether a message of {@code bytes} from rank {@code from} (of this JVM) to rank {@code to} may go eagerly: if
     * so, it takes that much of the pair's {@link #EAGER_CREDIT_BYTES}, which comes back once a receive takes it
     * ({@link #returnEagerCredit}).
     */
    public boolean takeEagerCredit(final int from, final int to, final long bytes) {
        final long cost = bytes + MESSAGE_COST;
        if (eagerOut[from].addAndGet(to, cost) <= EAGER_CREDIT_BYTES) {
            return true;
        }
        eagerOut[from].addAndGet(to, -cost);
        return false;
    }

    /** Rank {@code to} took eager messages of rank {@code from} (of this JVM) that cost {@code cost} in all. */
    public void returnEagerCredit(final int from, final int to, final long cost) {
        eagerOut[from].addAndGet(to, -cost);
    }

    /** What an eager message of {@code bytes} costs of its pair's credit. */
    public static long eagerCost(final long bytes) {
        return bytes + MESSAGE_COST;
    }

    /** A message from another JVM for the rank {@code worldRank} of this one. */
    void arrived(final int worldRank, final Message m, final boolean eager) {
        traffic.received(worldRank, m.sender, m.bytes());
        mailboxes[worldRank].deliver(m, eager);
    }

    public int size() {
        return mailboxes.length;
    }

    /**
     * Sends {@code m} from the rank {@code from} of this JVM to the rank {@code worldRank}: matched now, or kept
     * there until a receive takes it (as a copy if {@code eager}, completing the send). Returns the message as
     * kept, null if a receive took it at once.
     */
    public Message deliver(final int from, final int worldRank, final Message m, final boolean eager) {
        checkNotAborted();
        final Mailbox local = mailboxes[worldRank];
        final RankTraffic t = traffic;
        final long bytes = m.bytes();
        t.sent(from, worldRank, bytes);
        if (local != null) {
            t.received(worldRank, from, bytes);
            return local.deliver(m, eager);
        }
        return remote.send(from, worldRank, m, eager);
    }

    /** Posts a receive of the rank {@code worldRank}. */
    public void post(final int worldRank, final Receive r) {
        checkNotAborted();
        mailboxes[worldRank].post(r);
    }

    /**
     * The message a receive of {@code worldRank} for this envelope would take now, or null; {@code sources} as for
     * {@link Receive#from}.
     */
    public Message peek(final int worldRank, final int context, final int source, final int tag, final int[] sources) {
        checkNotAborted();
        return mailboxes[worldRank].peek(context, source, tag, sources);
    }

    /** As {@link #peek}, waiting for such a message. */
    public Message awaitMessage(
            final int worldRank, final int context, final int source, final int tag, final int[] sources) {
        return mailboxes[worldRank].awaitMessage(this, worldRank, context, source, tag, sources);
    }

    public boolean cancel(final int worldRank, final Receive r) {
        return mailboxes[worldRank].cancel(r);
    }

    /** Withdraws {@code m}, sent to {@code worldRank}, if no receive took it yet. */
    public boolean cancel(final int worldRank, final Message m) {
        return mailboxes[worldRank] != null ? mailboxes[worldRank].cancel(m) : remote.cancel(worldRank, m);
    }

    /** Withdraws {@code m}, from another JVM, from the mailbox of {@code worldRank} here, if no receive took it. */
    boolean cancelHere(final int worldRank, final Message m) {
        return mailboxes[worldRank].cancel(m);
    }

    /** {@code n} fresh pairs of contexts (point-to-point, collectives); returns the first. */
    public int newContexts(final int n) {
        final int first = nextContext.getAndAdd(2 * n);
        if (first > contextLimit - 2 * n) {
            throw new FabricException(
                    "this rank has made all the communicators it may make (freed ones are not" + " reused)");
        }
        return first;
    }

    /** Rank {@code worldRank}, of this JVM, called Abort({@code errorcode}): the whole job ends. */
    public void abortBy(final int worldRank, final int errorcode) {
        synchronized (this) {
            if (abortingRank < 0 && abortedBecause == null) {
                abortCode = errorcode;
                abortCalledAt = System.nanoTime();
                abortingRank = worldRank;
            }
        }
        abortJob("rank " + worldRank + " called Abort(" + errorcode + ")");
    }

    /** The rank of this JVM that ended the job with Abort, or -1. */
    public int abortingRank() {
        return abortingRank;
    }

    /** The error code the rank of {@link #abortingRank} gave Abort. */
    public int abortCode() {
        return abortCode;
    }

    /** When ({@code System.nanoTime}) the rank of {@link #abortingRank} called Abort. */
    public long abortCalledAtNanos() {
        return abortCalledAt;
    }

    /** Ends the whole job, the ranks of other JVMs too (a rank's Abort). */
    public void abortJob(final String why) {
        abort(why);
        if (remote != null) {
            remote.abortAll(why);
        }
    }

    /** The rank {@code worldRank}, of this JVM, has called MPI.Init. */
    public void started(final int worldRank) {
        finalized.compareAndSet(worldRank, 0, STARTED);
    }

    /** Whether the rank {@code worldRank}, of this JVM, called MPI.Init but not MPI.Finalize. */
    public boolean isStartedOnly(final int worldRank) {
        return finalized.get(worldRank) == STARTED;
    }

    /** The rank {@code worldRank}, of this JVM, has finalized MPI. */
    public void finalized(final int worldRank) {
        finalized.set(worldRank, FINALIZED);
        if (remote != null) {
            remote.finished(worldRank);
        }
    }

    /** Ends the job: every rank's pending and later calls fail with {@code why}. The first reason stays. */
    public void abort(final String why) {
        if (abortedBecause == null) {
            synchronized (this) {
                if (abortedBecause == null) {
                    abortedBecause = why;
                }
            }
        }
    }

    /** Whether the rank {@code worldRank}, of this JVM, has called MPI.Finalize: its ending then is no failure. */
    public boolean hasFinalized(final int worldRank) {
        return finalized.get(worldRank) == FINALIZED;
    }

    public boolean isAborted() {
        return abortedBecause != null;
    }

    /** Why the job was aborted, or null. */
    public String abortedBecause() {
        return abortedBecause;
    }

    public void checkNotAborted() {
        final String why = abortedBecause;
        if (why != null) {
            throw new FabricException("the job was aborted: " + why);
        }
    }
}
