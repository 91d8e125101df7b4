package org.troupe.mpi.fabric;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The ranks of one MPI job in one JVM and what connects them: a mailbox each, the communicator contexts handed out
 * so far, and whether the job was aborted. Shared by every rank (loaded once, by the launcher's class loader), while
 * the {@code mpi} classes are loaded once per rank.
 */
public final class Fabric {
    /** Matches any source rank, as {@code MPI.ANY_SOURCE}. */
    public static final int ANY_SOURCE = -2;
    /** Matches any tag, as {@code MPI.ANY_TAG}. */
    public static final int ANY_TAG = -1;
    /** Contexts of COMM_WORLD (point-to-point, collectives) and COMM_SELF; later communicators take the next ones. */
    public static final int WORLD_CONTEXT = 0;
    public static final int SELF_CONTEXT = 2;

    private final Mailbox[] mailboxes;
    private final AtomicInteger nextContext = new AtomicInteger(4);
    private volatile String abortedBecause;

    public Fabric(final int size) {
        if (size < 1) {
            throw new IllegalArgumentException("a job has at least one rank, not " + size);
        }
        mailboxes = new Mailbox[size];
        for (int i = 0; i < size; i++) {
            mailboxes[i] = new Mailbox();
        }
    }

    public int size() {
        return mailboxes.length;
    }

    /** Whether this JVM's ranks outnumber its cores: then waiting ranks should not spin. */
    boolean oversubscribed() {
        return mailboxes.length > Runtime.getRuntime().availableProcessors();
    }

    /**
     * Sends {@code m} to the rank {@code worldRank}: matched now, or kept there until a receive takes it (as a copy
     * if {@code eager}, completing the send). Returns the message as kept, null if a receive took it at once.
     */
    public Message deliver(final int worldRank, final Message m, final boolean eager) {
        checkNotAborted();
        return mailboxes[worldRank].deliver(m, eager);
    }

    /** Posts a receive of the rank {@code worldRank}. */
    public void post(final int worldRank, final Receive r) {
        checkNotAborted();
        mailboxes[worldRank].post(r);
    }

    /** The message a receive of {@code worldRank} for this envelope would take now, or null. */
    public Message peek(final int worldRank, final int context, final int source, final int tag) {
        checkNotAborted();
        return mailboxes[worldRank].peek(context, source, tag);
    }

    /** As {@link #peek}, waiting for such a message. */
    public Message awaitMessage(final int worldRank, final int context, final int source, final int tag) {
        return mailboxes[worldRank].awaitMessage(this, context, source, tag);
    }

    public boolean cancel(final int worldRank, final Receive r) {
        return mailboxes[worldRank].cancel(r);
    }

    /** Withdraws {@code m}, sent to {@code worldRank}, if no receive took it yet. */
    public boolean cancel(final int worldRank, final Message m) {
        return mailboxes[worldRank].cancel(m);
    }

    /** {@code n} fresh pairs of contexts (point-to-point, collectives); returns the first. */
    public int newContexts(final int n) {
        return nextContext.getAndAdd(2 * n);
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

    public boolean isAborted() {
        return abortedBecause != null;
    }

    public void checkNotAborted() {
        final String why = abortedBecause;
        if (why != null) {
            throw new FabricException("the job was aborted: " + why);
        }
    }
}
