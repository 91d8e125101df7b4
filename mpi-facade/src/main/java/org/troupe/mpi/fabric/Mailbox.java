package org.troupe.mpi.fabric;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The matching engine of one rank: the receives it has posted and the messages that came before a receive for
 * them. Both lists keep their order, so a receive takes the oldest matching message and a message the oldest
 * matching receive: messages between two ranks on one context and tag never overtake each other. A message of
 * another JVM that names as its source a rank other than the one it came from is dropped where a receive or a probe
 * would match it ({@link Message#isFromItsSource}).
 */
final class Mailbox {
    private static final Logger LOG = LoggerFactory.getLogger(Mailbox.class);
    private final ReentrantLock lock = new ReentrantLock();
    private final List<Receive> posted = new ArrayList<>();
    private final List<Message> unexpected = new ArrayList<>();

    /** Messages waiting for a receive to match them: read for the metrics, under the lock. */
    int unexpectedCount() {
        lock();
        try {
            return unexpected.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the lock, spinning a little first: it is held for a match or a small message's copy (under a
     * microsecond or two), while a parked rank costs ten to wake, which a ping-pong would pay at every message.
     */
    private void lock() {
        if (lock.tryLock()) {
            return;
        }
        for (int i = 0; i < LOCK_SPINS; i++) {
            Thread.onSpinWait();
            if (lock.tryLock()) {
                return;
            }
        }
        lock.lock();
    }

    private static final int LOCK_SPINS = 1_000;

    /**
     * A message for this rank: into the oldest matching posted receive, or kept until one is posted; an eager
     * message is then kept as a copy and its send completes. Returns the message as kept, or null if matched.
     */
    Message deliver(final Message m, final boolean eager) {
        Receive match = null;
        boolean forged = false;
        lock();
        try {
            for (final Iterator<Receive> it = posted.iterator(); it.hasNext(); ) {
                final Receive r = it.next();
                if (m.matches(r.context, r.source, r.tag)) {
                    forged = !m.isFromItsSource(r.sources); // the receives of a context share its communicator
                    if (!forged) {
                        it.remove();
                        match = r;
                    }
                    break;
                }
            }
            if (match == null && !forged) {
                final Message kept = eager ? m.detached() : m;
                unexpected.add(kept);
                final Thread p = prober;
                if (p != null) {
                    LockSupport.unpark(p);
                }
                return kept;
            }
        } finally {
            lock.unlock();
        }
        if (forged) {
            drop(List.of(m));
        } else {
            match.take(m); // outside the lock: the copy may be large
        }
        return null;
    }

    /** Drops forged messages, outside the lock (a dropped rendezvous tells its sender). */
    private static void drop(final List<Message> forged) {
        for (final Message m : forged) {
            LOG.warn(
                    "Dropped a message from world rank {} that names rank {} of its communicator (context {}) as its"
                            + " source",
                    m.sender,
                    m.source,
                    m.context);
            m.discard();
        }
    }

    /** Posts a receive: it takes the oldest matching message that came already, or waits for one. */
    void post(final Receive r) {
        final Message m = find(r.context, r.source, r.tag, r.sources, true, r);
        if (m != null) {
            r.take(m);
        }
    }

    /**
     * The oldest message matching (from its source, by {@code sources}): removed and returned if {@code take}, else
     * left in place; or null, after posting {@code orPost} if it is not null.
     */
    private Message find(
            final int context,
            final int source,
            final int tag,
            final int[] sources,
            final boolean take,
            final Receive orPost) {
        List<Message> forged = List.of();
        Message found = null;
        lock();
        try {
            for (final Iterator<Message> it = unexpected.iterator(); it.hasNext(); ) {
                final Message m = it.next();
                if (m.matches(context, source, tag)) {
                    if (!m.isFromItsSource(sources)) {
                        it.remove();
                        forged = forged.isEmpty() ? new ArrayList<>() : forged;
                        forged.add(m);
                    } else {
                        if (take) {
                            it.remove();
                        }
                        found = m;
                        break;
                    }
                }
            }
            if (found == null && orPost != null) {
                posted.add(orPost);
            }
        } finally {
            lock.unlock();
        }
        drop(forged);
        return found;
    }

    /**
     * The oldest message that a receive for this envelope (from the ranks {@code sources}, see {@link Receive#from})
     * would take now, left in place; or null.
     */
    Message peek(final int context, final int source, final int tag, final int[] sources) {
        return find(context, source, tag, sources, false, null);
    }

    /** As {@link #peek}, waiting until such a message comes (as a wait for a receive does). */
    Message awaitMessage(
            final Fabric fabric,
            final int worldRank,
            final int context,
            final int source,
            final int tag,
            final int[] sources) {
        final Message[] found = new Message[1];
        final int peer = source == Fabric.ANY_SOURCE || sources == null ? source : sources[source];
        final Operation probe =
                new Operation().describe(BlockedCall.Call.PROBE, worldRank, peer, context, tag, 0); // for reports
        fabric.await(() -> (found[0] = peek(context, source, tag, sources)) != null, probe, t -> prober = t);
        return found[0];
    }

    /** A thread waiting in a probe, to wake when a message comes. */
    private volatile Thread prober;

    /** Withdraws a posted receive that nothing matched yet; false if a message took it already. */
    boolean cancel(final Receive r) {
        lock();
        try {
            if (!posted.remove(r)) {
                return false;
            }
        } finally {
            lock.unlock();
        }
        r.done.cancelled();
        return true;
    }

    /** Withdraws a message no receive took yet; false if one did. */
    boolean cancel(final Message m) {
        lock();
        try {
            if (!unexpected.remove(m)) {
                return false;
            }
        } finally {
            lock.unlock();
        }
        if (m.send != null) {
            m.send.cancelled();
        }
        m.consumed();
        m.release();
        return true;
    }
}
