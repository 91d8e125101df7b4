package org.troupe.mpi.fabric;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A send or receive in flight: pending until matched (or cancelled, or failed). The waiter spins briefly, as a
 * message between ranks of one JVM often comes within microseconds, then parks; it wakes at least every
 * millisecond to notice an aborted job.
 */
public final class Operation {
    private static final int PENDING = 0;
    private static final int DONE = 1;
    private static final int CANCELLED = 2;
    private static final int FAILED = 3;

    private volatile int state = PENDING;
    private volatile Thread waiter;
    /** Run once it completes, by the thread that completes it (a freed receive's unpacking), or null. */
    private volatile Runnable onDone;

    private static final VarHandle ON_DONE;

    static {
        try {
            ON_DONE = MethodHandles.lookup().findVarHandle(Operation.class, "onDone", Runnable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private int source;
    private int tag;
    private int count;
    private String failure;
    /** What it is, for a report of the calls ranks are blocked in; set by its maker ({@link #describe}). */
    private BlockedCall.Call call = BlockedCall.Call.RECV;

    private int owner = -1;
    private int peer;
    private int wantedContext;
    private int wantedTag;
    private int elements;

    /**
     * Says what it is, for a report of blocked ranks: the world rank that waits for it, the world rank at the other
     * end ({@link Fabric#ANY_SOURCE} for any), the context, tag and elements. Plain writes: read only by a report.
     */
    public Operation describe(
            final BlockedCall.Call call,
            final int owner,
            final int peer,
            final int context,
            final int tag,
            final int elements) {
        this.call = call;
        this.owner = owner;
        this.peer = peer;
        this.wantedContext = context;
        this.wantedTag = tag;
        this.elements = elements;
        return this;
    }

    /** What a wait for any of several operations, this one first, is: for a report of blocked ranks. */
    public Operation firstOfSeveral() {
        return new Operation().describe(BlockedCall.Call.ANY, owner, peer, wantedContext, wantedTag, elements);
    }

    /** What a waiter for it since {@code sinceNanos} is blocked in; null if it was not described. */
    BlockedCall blockedSince(final long sinceNanos) {
        return owner < 0 ? null : new BlockedCall(owner, call, peer, wantedContext, wantedTag, elements, sinceNanos);
    }

    /** Completes it: a receive with the envelope and element count of the message it got. */
    void complete(final int source, final int tag, final int count) {
        this.source = source;
        this.tag = tag;
        this.count = count;
        finish(DONE);
    }

    void fail(final String why) {
        this.failure = why;
        finish(FAILED);
    }

    void cancelled() {
        finish(CANCELLED);
    }

    private void finish(final int outcome) {
        state = outcome; // after the fields: a reader that sees the state sees them
        wake();
        runOnDone(onDone);
    }

    /**
     * Runs {@code action} once it is done: now if it is, else when it completes. It is set before the state is read,
     * as finish sets the state before it reads it: one of the two sees the other, and the swap runs it once.
     */
    public void whenDone(final Runnable action) {
        onDone = action;
        if (state != PENDING) {
            runOnDone(action);
        }
    }

    private void runOnDone(final Runnable action) {
        if (action != null && ON_DONE.compareAndSet(this, action, null)) {
            action.run();
        }
    }

    /** Unparks its waiter, if one is parked: something it waits for has moved (its data is on the way). */
    void wake() {
        final Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    public boolean isDone() {
        return state != PENDING;
    }

    /** The thread to unpark when it completes (one waiting in Waitany, say), or null. */
    public void waitedBy(final Thread t) {
        waiter = t;
    }

    public boolean isCancelled() {
        return state == CANCELLED;
    }

    /**
     * Waits until it is done, and throws if it failed or the job was aborted meanwhile. The wait is not cut short by
     * an interrupt (the operation stays posted, and would take a message meant for a later call): the thread's
     * interrupt flag is set again when it returns. With ranks in other JVMs, a spinning waiter reads the links
     * itself, as the core's waiting callers do, so that a reply does not wait for an event loop to get a core.
     */
    public void await(final Fabric fabric) {
        if (state == PENDING) {
            fabric.await(this::isDone, this, t -> waiter = t);
        }
        checkNotFailed();
    }

    /** Throws if it failed. */
    public void checkNotFailed() {
        if (state == FAILED) {
            throw new FabricException(failure);
        }
    }

    public int source() {
        return source;
    }

    public int tag() {
        return tag;
    }

    /** Elements received. */
    public int count() {
        return count;
    }
}
