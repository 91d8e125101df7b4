package org.troupe.mpi.fabric;

import static org.troupe.mpi.fabric.FabricFrame.ABORT;
import static org.troupe.mpi.fabric.FabricFrame.BYE;
import static org.troupe.mpi.fabric.FabricFrame.CANCEL;
import static org.troupe.mpi.fabric.FabricFrame.CANCELLED;
import static org.troupe.mpi.fabric.FabricFrame.CREDIT;
import static org.troupe.mpi.fabric.FabricFrame.CTS;
import static org.troupe.mpi.fabric.FabricFrame.DATA;
import static org.troupe.mpi.fabric.FabricFrame.EAGER;
import static org.troupe.mpi.fabric.FabricFrame.FAILED;
import static org.troupe.mpi.fabric.FabricFrame.HEADER_BYTES;
import static org.troupe.mpi.fabric.FabricFrame.LINKED;
import static org.troupe.mpi.fabric.FabricFrame.REFUSED;
import static org.troupe.mpi.fabric.FabricFrame.RTS;
import static org.troupe.mpi.fabric.FabricFrame.header;
import static org.troupe.mpi.fabric.FabricFrame.text;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.spi.Endpoint;
import org.troupe.core.spi.EndpointAddress;
import org.troupe.core.spi.EndpointHandler;

/**
 * The ranks of other JVMs, reached through the core's endpoints: each rank's JVM opens one endpoint, and a message is
 * one frame into the receiver's matching engine. Small messages go eagerly (their bytes in the frame); large ones
 * and synchronous sends by rendezvous: the envelope first (RTS), the receiver answers when a receive matches it
 * (CTS), and only then do the bytes go, straight into the posted buffer (DATA). A lost JVM of a rank that had not
 * finished aborts the job. {@link FabricFrame} draws the frames.
 *
 * <p>A JVM may hold several consecutive ranks (hybrid placement, {@code mpjrun -ppn K}): each has an endpoint of its
 * own, so that a frame's destination is the endpoint it comes to and the frames keep their layout; messages between
 * the ranks of one JVM never come here (the {@link Fabric} delivers them to their mailboxes).
 */
public final class EndpointFabric implements Fabric.Remote, EndpointHandler {
    private static final Logger LOG = LoggerFactory.getLogger(EndpointFabric.class);
    /** Credit is given back in steps of this much, so that it costs a frame per many small messages. */
    static final long CREDIT_STEP_BYTES = 1 << 20;
    /** The most bytes of a rendezvous message in one DATA frame. */
    static final int DATA_PIECE_BYTES = 256 * 1024;

    /** The ranks of this JVM, consecutive; and by world rank, the index of one here, or -1. */
    private final int[] local;

    private final int[] localIndex;
    private final long maxFrameBytes;
    /** By local index: the rank's endpoint. */
    private final Endpoint[] endpoints;

    private volatile EndpointAddress[] ranks;
    private volatile Fabric fabric;
    private final AtomicLong nextId = new AtomicLong(1);
    /** Rendezvous messages sent from here that no receive has matched yet, by send id. */
    private final Map<Long, Outgoing> sends = new ConcurrentHashMap<>();

    /** Receives of this JVM's ranks that cleared a message of another JVM, by id, with the endpoint it comes from. */
    private final Map<Long, Expected> receives = new ConcurrentHashMap<>();
    /**
     * Rendezvous messages sent from here that their receivers cleared (CTS), whose data no thread sends yet. Their
     * data is sent by a thread of the application waiting in (or testing) a request ({@link #progress}), never by
     * the handler that took the CTS: a handler's sends cannot wait for room, so they queue, and the link stops
     * reading while too much of them waits; two JVMs sending each other large messages at once then each stopped
     * reading the other's, and neither's ever left.
     */
    private final Queue<Cleared> cleared = new ConcurrentLinkedQueue<>();

    /** Rendezvous messages from other JVMs that no receive has matched yet, by sender and send id: for CANCEL. */
    private final Map<String, Message> waitingHere = new ConcurrentHashMap<>();

    private final AtomicIntegerArray finished;
    /**
     * By sending rank and then receiving rank of this JVM: credit for eager messages taken here, not yet given back
     * (see {@link #creditBack}).
     */
    private final AtomicLongArray owedCredit;
    /** Frames received: see {@link #arrivals}. */
    @SuppressWarnings("unused") // through ARRIVALS
    private volatile long arrivals;
    /**
     * What the eager messages of other JVMs that no receive took yet cost this JVM ({@link Fabric#eagerCost}), and
     * how much they may: a rank's credit bounds what it sends eagerly to a rank, but a buffered send goes without
     * it, and so may a rank that breaks the protocol. Past the bound the job ends, rather than this JVM's heap.
     */
    private final AtomicLong heldEager = new AtomicLong();

    private long heldEagerLimit = Runtime.getRuntime().maxMemory() / 4;

    /** Jobs of at most this many JVMs link every pair ahead; larger ones, each JVM's neighbours (see linkAhead). */
    static final int LINK_AHEAD_ALL = 32;

    /** The runtimes whose JVMs dialled this one ahead of the program (see linkAhead), and those that answered it. */
    private final Set<String> dialledBy = ConcurrentHashMap.newKeySet();

    private final Set<String> answeredBy = ConcurrentHashMap.newKeySet();

    private static final VarHandle ARRIVALS;

    static {
        try {
            ARRIVALS = MethodHandles.lookup().findVarHandle(EndpointFabric.class, "arrivals", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Wired in three steps, before the job's program runs: {@link #attach} the fabric, {@link #connect} the endpoint
     * this serves, and once every rank has one, {@link #ranks}. Frames may arrive from the second step on (a rank
     * that learnt the table first sends at once): they need only the fabric.
     */
    public EndpointFabric(final int self, final int size, final long maxFrameBytes) {
        this(new int[] {self}, size, maxFrameBytes);
    }

    /** For tests: at most {@code bytes} of other JVMs' eager messages held here (a quarter of the heap by default). */
    EndpointFabric holdingAtMost(final long bytes) {
        heldEagerLimit = bytes;
        return this;
    }

    /** As {@link #EndpointFabric(int, int, long)}, for the consecutive ranks {@code local} of this JVM. */
    public EndpointFabric(final int[] local, final int size, final long maxFrameBytes) {
        this.local = local.clone();
        this.localIndex = new int[size];
        Arrays.fill(localIndex, -1);
        for (int i = 0; i < local.length; i++) {
            localIndex[local[i]] = i;
        }
        this.maxFrameBytes = maxFrameBytes;
        this.endpoints = new Endpoint[local.length];
        this.finished = new AtomicIntegerArray(size);
        this.owedCredit = new AtomicLongArray(size * local.length);
    }

    public void attach(final Fabric f) {
        this.fabric = f;
    }

    /** The endpoint of this JVM's only rank. */
    public void connect(final Endpoint e) {
        connect(local[0], e);
    }

    /** The endpoint of {@code rank}, of this JVM; frames to it are given to {@link #received(int, ...)}. */
    public synchronized void connect(final int rank, final Endpoint e) {
        endpoints[localIndex[rank]] = e;
    }

    private Endpoint endpointOf(final int rank) {
        return endpoints[localIndex[rank]];
    }

    /** Every rank's endpoint, by world rank. */
    public void ranks(final EndpointAddress[] table) {
        this.ranks = table.clone();
    }

    /**
     * Opens this JVM's links to the other ranks' JVMs before the program runs, so that a first message costs what
     * later ones do rather than a link's dial and handshake (milliseconds; hundreds on a loaded host): every pair of
     * JVMs in a job of at most {@link #LINK_AHEAD_ALL}, else each JVM's neighbours on a ring (two each way) and on a
     * hypercube; other links open on first use. Of each pair, the JVM that holds the lower ranks dials (its LINKED
     * frame opens the link), so that no two links cross; the other answers once every lower JVM has dialled it. A
     * JVM's program starts when its dials are answered: all of a job's JVMs start theirs within a frame's time of
     * each other, rather than when each happened to be ready. Returns then, or once the job was aborted or
     * {@code timeout} passed (the links missing then open on first use).
     */
    public void linkAhead(final Duration timeout) {
        final EndpointAddress[] table = ranks;
        final Map<String, Integer> firstRank = new LinkedHashMap<>(); // runtime -> its lowest rank, in rank order
        for (int r = 0; r < table.length; r++) {
            firstRank.putIfAbsent(table[r].runtimeId(), r);
        }
        final List<Integer> jvms = List.copyOf(firstRank.values());
        final int n = jvms.size();
        final int me = jvms.indexOf(firstRank.get(table[local[0]].runtimeId()));
        final List<EndpointAddress> lower = new ArrayList<>();
        final List<EndpointAddress> higher = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            if (j != me && (n <= LINK_AHEAD_ALL || neighbours(me, j, n))) {
                (j < me ? lower : higher).add(table[jvms.get(j)]);
            }
        }
        final long deadline = System.nanoTime() + timeout.toNanos();
        linked(higher, DIALLED);
        if (awaitLinked(lower, dialledBy, deadline)) {
            linked(lower, ANSWERED);
            awaitLinked(higher, answeredBy, deadline);
        }
    }

    /** What a LINKED frame's id1 says: its sender dialled the receiver's JVM, or answers the receiver's dial. */
    private static final long DIALLED = 0;

    private static final long ANSWERED = 1;

    /** Sends LINKED ({@code what}) to each JVM of {@code to}: the first frame to one opens the link. */
    private void linked(final List<EndpointAddress> to, final long what) {
        for (final EndpointAddress a : to) {
            try {
                send(local[0], a, header(LINKED, 0, local[0], 0, Kind.BYTE, 0, what, 0), ByteBuffer.allocate(0));
            } catch (FabricException e) {
                LOG.debug("No link ahead to {}: {}", a, e.getMessage());
            }
        }
    }

    /** Waits until every JVM of {@code from} is in {@code heard}; false if the job was aborted or the time is up. */
    private boolean awaitLinked(final List<EndpointAddress> from, final Set<String> heard, final long deadline) {
        synchronized (heard) {
            while (!from.stream().allMatch(a -> heard.contains(a.runtimeId()))) {
                final long left = deadline - System.nanoTime();
                if (fabric.isAborted() || left <= 0) {
                    LOG.debug("Links ahead: not every JVM of {} linked in time", from);
                    return false;
                }
                try {
                    heard.wait(Math.max(1, Math.min(50, left / 1_000_000)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether JVMs {@code a} and {@code b} of {@code n} are neighbours on a ring (two each way) or a hypercube. */
    static boolean neighbours(final int a, final int b, final int n) {
        final int d = Math.floorMod(a - b, n);
        return d <= 2 || n - d <= 2 || Integer.bitCount(a ^ b) == 1;
    }

    // --- Sending ---

    @Override
    public Message send(final int from, final int worldRank, final Message m, final boolean eager) {
        final long bytes = m.kind == Kind.OBJECT ? ((byte[]) m.data).length : (long) m.count * m.kind.bytes();
        if (bytes + HEADER_BYTES + 64 > maxFrameBytes) {
            throw new FabricException("a message of " + bytes + " bytes is larger than a frame between JVMs may be"
                    + " (troupe.serialization.maxMessageBytes = " + maxFrameBytes + "): send it in parts, or raise the"
                    + " setting for mpjrun (JAVA_OPTS=-Dtroupe.serialization.maxMessageBytes=...)");
        }
        if (eager) {
            frame(from, worldRank, EAGER, m, from, 0, Wire.toBytes(m.kind, m.data, m.offset, m.count));
            if (m.send != null) {
                m.send.complete(m.source, m.tag, m.count);
            }
            m.release();
        } else {
            final long id = nextId.getAndIncrement();
            sends.put(id, new Outgoing(m, from, ranks[worldRank]));
            frame(from, worldRank, RTS, m, id, 0, ByteBuffer.allocate(0));
            return m; // it may be withdrawn until a receive matches it
        }
        return null; // its bytes are in the other JVM: it cannot be withdrawn
    }

    /** Asks the receiver to withdraw {@code m}; its send completes as cancelled if it does. Always false now. */
    @Override
    public boolean cancel(final int worldRank, final Message m) {
        for (final Map.Entry<Long, Outgoing> e : sends.entrySet()) { // a rare call: the pending sends are looked over
            if (e.getValue().message == m) {
                final int from = e.getValue().from;
                send(
                        from,
                        ranks[worldRank],
                        header(CANCEL, 0, from, 0, Kind.BYTE, 0, e.getKey(), 0),
                        ByteBuffer.allocate(0));
            }
        }
        return false;
    }

    /**
     * A rendezvous message sent from the rank {@code from} of this JVM to the endpoint {@code to}, waiting for its
     * receiver's CTS: only a frame from {@code to} answers it.
     */
    private record Outgoing(Message message, int from, EndpointAddress to) {}

    /** A receive cleared a message of the endpoint {@code sender}: only frames from it carry its data. */
    private record Expected(Receive receive, EndpointAddress sender) {}

    /**
     * The send {@code id} of this JVM, no longer waiting, if {@code from} is the endpoint it was sent to; else null:
     * a frame of another endpoint (another rank of the job, forging) answers no send of ours, and is dropped.
     */
    private Outgoing answered(final long id, final EndpointAddress from) {
        final Outgoing o = sends.get(id);
        if (o == null) {
            return null;
        }
        if (!o.to.equals(from)) {
            LOG.warn("Dropped a frame from {} that answers a message sent to {}", from, o.to);
            return null;
        }
        return sends.remove(id, o) ? o : null;
    }

    /** Whether world rank {@code rank} is the one whose endpoint is {@code from}; if not, the frame is dropped. */
    private boolean sentBy(final long rank, final EndpointAddress from) {
        final EndpointAddress[] all = ranks;
        if (all != null && rank >= 0 && rank < all.length && all[(int) rank].equals(from)) {
            return true;
        }
        LOG.warn("Dropped a frame from {} that claims to be from rank {}", from, rank);
        return false;
    }

    /** The world rank whose endpoint is {@code endpoint}, or -1. */
    private int worldRankOf(final EndpointAddress endpoint) {
        final EndpointAddress[] all = ranks;
        for (int r = 0; all != null && r < all.length; r++) {
            if (endpoint.equals(all[r])) {
                return r;
            }
        }
        return -1;
    }

    /** A rendezvous message whose receive, {@code receiveId} at {@code to}, matched it: its data may go. */
    private record Cleared(Outgoing outgoing, EndpointAddress to, long receiveId) {}

    /**
     * Sends the data of the messages cleared so far, on the calling thread (one of the application's, waiting in
     * or testing a request, which may wait for room and reads what arrives meanwhile); whether it sent any.
     */
    @Override
    public boolean progress() {
        boolean sent = false;
        for (Cleared c = cleared.poll(); c != null; c = cleared.poll()) {
            clearedToSend(c.outgoing().from(), c.to(), c.outgoing().message(), c.receiveId());
            sent = true;
        }
        return sent;
    }

    private void frame(
            final int from,
            final int worldRank,
            final byte type,
            final Message m,
            final long id1,
            final long id2,
            final ByteBuffer payload) {
        send(from, ranks[worldRank], header(type, m.context, m.source, m.tag, m.kind, m.count, id1, id2), payload);
    }

    /** Sends a frame from the endpoint of {@code from}, a rank of this JVM. */
    private void send(final int from, final EndpointAddress to, final ByteBuffer header, final ByteBuffer payload) {
        try {
            endpointOf(from).send(to, header, payload, false);
        } catch (RuntimeException e) {
            throw new FabricException(
                    "cannot reach " + rankOf(to) + " (its JVM has ended, or cannot be reached): " + e.getMessage());
        }
    }

    /** The receiver matched {@code m}: its data goes, and its send completes (or fails, and so does the receive). */
    private void clearedToSend(final int from, final EndpointAddress to, final Message m, final long receiveId) {
        try {
            sendData(from, to, m, receiveId);
        } catch (FabricException e) {
            if (m.send != null) {
                m.send.fail(e.getMessage());
            }
            m.release();
            try {
                send(
                        from,
                        to,
                        header(FAILED, 0, from, 0, Kind.BYTE, 0, receiveId, 0),
                        ByteBuffer.wrap(e.getMessage().getBytes(StandardCharsets.UTF_8)));
            } catch (FabricException lost) {
                // the receiver's JVM is gone: its receive fails with it
            }
            return;
        }
        if (m.send != null) {
            m.send.complete(m.source, m.tag, m.count);
        }
        m.release();
    }

    /**
     * The data of a rendezvous message, in pieces of at most {@link #DATA_PIECE_BYTES}: the receiver copies each into
     * the posted buffer while the next travels, rather than all of it after the last byte came.
     */
    private void sendData(final int from, final EndpointAddress to, final Message m, final long receiveId) {
        // Objects go whole: their bytes are one encoding, decoded at once.
        final int perPiece = m.kind == Kind.OBJECT ? Math.max(1, m.count) : DATA_PIECE_BYTES / m.kind.bytes();
        int at = 0;
        do {
            final int n = Math.min(perPiece, m.count - at);
            final ByteBuffer bytes = Wire.toBytes(m.kind, m.data, m.offset + at, n);
            send(from, to, header(DATA, m.context, m.source, m.tag, m.kind, n, receiveId, at), bytes);
            at += n;
        } while (at < m.count);
    }

    /** "rank N" for a rank's endpoint, else the endpoint. */
    private String rankOf(final EndpointAddress to) {
        final int r = worldRankOf(to);
        return r >= 0 ? "rank " + r : String.valueOf(to);
    }

    /** Tells every rank of other JVMs that {@code rank}, of this JVM, has finished: its JVM may go. */
    @Override
    public void finished(final int rank) {
        tellAll(rank, BYE, "");
        final IntConsumer also = onFinished;
        final Fabric f = fabric;
        // Only once it called MPI.Finalize: a rank's end without it (called too, to say BYE) is not one.
        if (also != null && f != null && f.hasFinalized(rank)) {
            try {
                also.accept(rank);
            } catch (RuntimeException e) {
                // the launcher is gone: the rank ends anyway
            }
        }
    }

    /** Whom else to tell when a rank of this JVM has finished with MPI (the launcher), given the rank. */
    public void onFinished(final IntConsumer also) {
        this.onFinished = also;
    }

    private volatile IntConsumer onFinished;

    @Override
    public void abortAll(final String why) {
        tellAll(local[0], ABORT, why);
        final Consumer<String> also = onAbort;
        if (also != null) {
            try {
                also.accept(why);
            } catch (RuntimeException e) {
                // whoever else was to be told is gone
            }
        }
    }

    /** Whom else to tell when a rank of this JVM aborts the job (the launcher). */
    public void onAbort(final Consumer<String> also) {
        this.onAbort = also;
    }

    private volatile Consumer<String> onAbort;

    /** Sends a frame of {@code type} from the rank {@code from} of this JVM to every rank of the other JVMs. */
    private void tellAll(final int from, final byte type, final String text) {
        final ByteBuffer h = header(type, 0, from, 0, Kind.BYTE, 0, 0, 0);
        final EndpointAddress[] all = ranks;
        for (int r = 0; all != null && r < all.length; r++) {
            if (localIndex[r] < 0) {
                try {
                    endpointOf(from)
                            .send(all[r], h.duplicate(), ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), false);
                } catch (RuntimeException e) {
                    // that rank's JVM is gone already: nothing to tell it
                }
            }
        }
    }

    // --- Receiving (on the thread that reads the link) ---

    @Override
    public long arrivals() {
        return (long) ARRIVALS.getOpaque(this);
    }

    /** A frame to this JVM's only rank. */
    @Override
    public void received(final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
        received(local[0], from, header, payload);
    }

    /** A frame to the endpoint of {@code to}, a rank of this JVM. */
    public void received(final int to, final EndpointAddress from, final ByteBuffer header, final ByteBuffer payload) {
        ARRIVALS.getAndAdd(this, 1L);
        final Fabric f = fabric;
        final ByteBuffer h = header.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (h.remaining() != HEADER_BYTES) {
            return; // not a frame of this job's ranks
        }
        final byte type = h.get();
        final int context = h.getInt();
        final int source = h.getInt();
        final int tag = h.getInt();
        final int kindIndex = h.get();
        final int count = h.getInt();
        final long id1 = h.getLong();
        final long id2 = h.getLong();
        final Kind kind = FabricFrame.kind(kindIndex);
        if (f == null || kind == null) {
            return;
        }
        if ((type == EAGER || type == DATA)
                && kind != Kind.OBJECT
                && payload.remaining() != (long) count * kind.bytes()) {
            f.abort("a malformed frame from " + from + ": " + count + " " + kind + " elements announced in "
                    + payload.remaining() + " bytes");
            return;
        }
        switch (type) {
            case EAGER -> {
                if (id1 < 0 || id1 >= finished.length()) {
                    f.abort("a malformed frame from " + from + ": an eager message from rank " + id1);
                    return;
                }
                if (!sentBy(id1, from)) {
                    return;
                }
                final long cost = Fabric.eagerCost(payload.remaining());
                final long held = heldEager.addAndGet(cost);
                if (held > heldEagerLimit) {
                    heldEager.addAndGet(-cost);
                    f.abortJob("the JVM of rank " + to + " holds " + (held - cost) / (1 << 20)
                            + " MiB of messages of other JVMs"
                            + " that no receive took, and rank " + id1 + " sent more: past a quarter of this JVM's"
                            + " heap (" + heldEagerLimit / (1 << 20) + " MiB); post the receives sooner, send fewer"
                            + " buffered messages ahead of them, or give the JVM more heap");
                    return;
                }
                f.arrived(
                        to,
                        new Message((int) id1, context, source, tag, kind, payload, count, null).onConsumed(() -> {
                            heldEager.addAndGet(-cost);
                            creditBack((int) id1, to, cost);
                        }),
                        true);
            }
            case CREDIT -> {
                if (source >= 0 && source < finished.length() && id1 > 0 && sentBy(source, from)) {
                    f.returnEagerCredit(to, source, id1);
                }
            }
            case RTS -> {
                final int sender = worldRankOf(from);
                if (sender < 0) {
                    LOG.warn("Dropped a message from {}, the endpoint of no rank of the job", from);
                    return;
                }
                final Remote handle = new Remote(to, from, id1);
                final Message m = new Message(sender, context, source, tag, kind, null, count, handle);
                waitingHere.put(handle.key, m);
                f.arrived(to, m, false);
            }
            case CANCEL -> {
                final Message m = waitingHere.remove(from.runtimeId() + "/" + id1);
                if (m != null && f.cancelHere(to, m)) {
                    send(to, from, header(CANCELLED, 0, to, 0, Kind.BYTE, 0, id1, 0), ByteBuffer.allocate(0));
                }
            }
            case CANCELLED -> {
                final Outgoing o = answered(id1, from);
                if (o != null) {
                    final Message m = o.message;
                    if (m.send != null) {
                        m.send.cancelled();
                    }
                    m.release();
                }
            }
            case CTS -> {
                final Outgoing o = answered(id1, from);
                if (o != null) {
                    cleared.add(new Cleared(o, from, id2));
                    f.wakeWaiters(); // one of them sends it
                }
            }
            case REFUSED -> {
                final Outgoing o = answered(id1, from);
                if (o != null) {
                    final Message m = o.message;
                    if (m.send != null) {
                        m.send.complete(m.source, m.tag, m.count);
                    }
                    m.release();
                }
            }
            case DATA -> {
                final Expected e = receives.get(id1);
                if (e == null || !e.sender.equals(from)) {
                    return; // a receive that failed or was answered meanwhile, or a frame of another link
                }
                final Receive r = e.receive;
                if (kind != r.kind || id2 != r.arrivedSoFar() || id2 + count > r.expected()) {
                    f.abort("a malformed frame from " + from + ": " + kind + " data for elements " + id2 + " to "
                            + (id2 + count) + " of a receive of " + r.expected() + " " + r.kind + " elements, "
                            + r.arrivedSoFar() + " of them come");
                    return;
                }
                if (r.arrived(payload, (int) id2, source, tag, count)) {
                    receives.remove(id1);
                }
            }
            case FAILED -> {
                final Expected e = receives.get(id1);
                if (e != null && e.sender.equals(from) && receives.remove(id1, e)) {
                    e.receive.fail("the sender could not send the data: " + text(payload));
                }
            }
            case ABORT -> f.abort(text(payload));
            case BYE -> {
                if (source >= 0 && source < finished.length() && sentBy(source, from)) {
                    finished.set(source, 1);
                }
            }
            case LINKED -> { // not checked against the table, which may come after it: it only ends a wait sooner
                final Set<String> heard = id1 == ANSWERED ? answeredBy : dialledBy;
                heard.add(from.runtimeId());
                synchronized (heard) {
                    heard.notifyAll();
                }
            }
            default -> {
                // an unknown frame: ignored, as one of a later version would be
            }
        }
    }

    /**
     * A receive of {@code receiver}, here, took an eager message of rank {@code sender}: its credit goes back, a step
     * at a time.
     */
    private void creditBack(final int sender, final int receiver, final long cost) {
        final int pair = sender * local.length + localIndex[receiver];
        final long owed = owedCredit.addAndGet(pair, cost);
        if (owed >= CREDIT_STEP_BYTES && owedCredit.compareAndSet(pair, owed, 0)) {
            try {
                send(
                        receiver,
                        ranks[sender],
                        header(CREDIT, 0, receiver, 0, Kind.BYTE, 0, owed, 0),
                        ByteBuffer.allocate(0));
            } catch (FabricException e) {
                // the sender's JVM is gone: it needs no credit
            }
        }
    }

    @Override
    public void runtimeLost(final String runtimeId, final String reason) {
        final Fabric f = fabric;
        final EndpointAddress[] all = ranks;
        final List<Integer> lost = new ArrayList<>();
        for (int r = 0; all != null && r < all.length; r++) {
            if (localIndex[r] < 0 && all[r].runtimeId().equals(runtimeId) && finished.get(r) == 0) {
                lost.add(r);
            }
        }
        if (lost.isEmpty() || f == null) {
            return;
        }
        // Several ranks may share that JVM (hybrid placement): all are named, as they are all gone.
        final String which = (lost.size() == 1 ? "rank " : "ranks ")
                + lost.stream().map(String::valueOf).collect(Collectors.joining(", "));
        f.abort("the JVM of " + which + " was lost (" + reason + ")");
        for (final Expected pending : receives.values()) {
            pending.receive.fail("the JVM of " + which + " was lost before its data came (" + reason + ")");
        }
    }

    /** A large message waiting in another JVM. */
    private final class Remote implements Message.Rendezvous {
        /** The rank of this JVM it is for. */
        private final int receiver;

        private final EndpointAddress sender;
        private final long sendId;
        final String key;

        Remote(final int receiver, final EndpointAddress sender, final long sendId) {
            this.receiver = receiver;
            this.sender = sender;
            this.sendId = sendId;
            this.key = sender.runtimeId() + "/" + sendId;
        }

        @Override
        public void matched(final Receive receive, final int source, final int tag, final int count) {
            waitingHere.remove(key);
            final long receiveId = nextId.getAndIncrement();
            receive.expect(count);
            receives.put(receiveId, new Expected(receive, sender));
            send(
                    receiver,
                    sender,
                    header(CTS, 0, receiver, 0, Kind.BYTE, 0, sendId, receiveId),
                    ByteBuffer.allocate(0));
            receive.done.wake(); // a parked receiver spins again, and reads the data itself as it comes
        }

        @Override
        public void refused() {
            waitingHere.remove(key);
            send(receiver, sender, header(REFUSED, 0, receiver, 0, Kind.BYTE, 0, sendId, 0), ByteBuffer.allocate(0));
        }
    }
}
