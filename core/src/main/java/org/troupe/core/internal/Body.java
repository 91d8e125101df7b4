package org.troupe.core.internal;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.exceptions.TerminatedException;
import org.troupe.core.instrument.ObjectMeters;
import org.troupe.core.proxy.Invoker;
import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.service.EndActive;
import org.troupe.core.service.InitActive;
import org.troupe.core.service.RequestInfo;
import org.troupe.core.service.RunActive;
import org.troupe.core.service.Service;
import org.troupe.core.spi.MethodTable;

/**
 * The active part of an active object: the object itself, its request queue and the virtual thread that serves the
 * queue. Requests are served one at a time, so the object's code never runs concurrently with itself (immediate
 * methods excepted).
 */
public final class Body implements Service {
    private static final Logger LOG = LoggerFactory.getLogger(Body.class);
    /** The body whose thread this is; set once per body thread, so serving costs nothing more. */
    private static final ThreadLocal<Body> CURRENT = new ThreadLocal<>();

    private final long id;
    private final Object target;
    private final MethodTable table;
    private final Invoker invoker;
    private final Copier copier;
    private final Runnable onEnd;
    private final ObjectMeters meters;
    /**
     * What its thread counts for the meters, with its queue's length, read from another thread: approximate (the
     * queue proper is this thread's alone), which a gauge may be.
     */
    private final ObjectMeters.Counts counts;
    /**
     * Requests sent by any thread. Lock-free, so that a sender never holds something the body then waits for: a
     * body spinning for work takes a request the moment it is offered.
     */
    private final ConcurrentLinkedQueue<Request> inbox = new ConcurrentLinkedQueue<>();
    /** Requests moved from the inbox, in arrival order; only the body's thread touches it (filters, youngest). */
    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    /** How the body's thread waits for a request to arrive in the inbox. */
    private final IdleWait idleWait;

    private volatile boolean active = true;

    private volatile Thread thread;
    /** The proxy callers of this object hold; set once, when the body starts (other threads may look it up). */
    private volatile Object proxy;
    /** What its proxy prints ("Solver#3@troupe://host:port/node"), for messages. */
    private volatile String name;

    public Body(
            final long id,
            final Object target,
            final long spinNanos,
            final Copier copier,
            final ObjectMeters meters,
            final Runnable onEnd) {
        this.id = id;
        this.target = target;
        this.table = MethodTable.of(target.getClass());
        this.invoker = ProxyGenerator.invoker(target.getClass());
        this.copier = copier;
        this.onEnd = onEnd;
        this.meters = meters;
        this.counts = meters.live(() -> inbox.size() + queue.size());
        this.idleWait = new IdleWait(this, inbox, spinNanos, copier);
    }

    public long id() {
        return id;
    }

    public Object target() {
        return target;
    }

    public MethodTable table() {
        return table;
    }

    /** What its proxy prints ("Solver#3@troupe://host:port/node"). */
    public String name() {
        return name;
    }

    /** The proxy that callers of this object hold. */
    public Object proxy() {
        return proxy;
    }

    /** Starts the body's thread; {@code proxy} is what its callers hold. */
    public void start(final String name, final Object proxy) {
        this.proxy = proxy;
        this.name = name;
        thread = Thread.ofVirtual().name(name).unstarted(this::live);
        thread.start();
    }

    /** The body whose own thread calls this, or null (any other thread, immediate services included). */
    public static Body current() {
        return CURRENT.get();
    }

    private void live() {
        CURRENT.set(this);
        copier.enterThread();
        try {
            if (target instanceof InitActive init) {
                init.initActivity(this);
            }
            if (target instanceof RunActive run) {
                run.runActivity(this);
            } else {
                fifoServing();
            }
            if (target instanceof EndActive end) {
                end.endActivity(this);
            }
        } catch (Throwable t) {
            LOG.error(
                    "The activity of active object {} ({}) failed; it serves no more requests",
                    id,
                    target.getClass().getName(),
                    t);
        } finally {
            active = false;
            failQueued();
            counts.ended();
            copier.exitThread();
            onEnd.run();
        }
    }

    /** Queues a request; fails it at once if this body no longer serves. Whether it was queued. */
    public boolean enqueue(final Request request) {
        if (active) {
            request.queuedAt = meters.queued();
            inbox.offer(request);
            if (idleWait.parked()) {
                LockSupport.unpark(thread);
            }
            // Terminated meanwhile: the body's last drain either failed the request already, or missed it.
            if (active || !inbox.remove(request)) {
                return true;
            }
        }
        refuse(request);
        return false;
    }

    /** Runs a request at once in the calling thread (an immediate service), bypassing the queue. */
    public void serveNow(final Request request) {
        if (!active) {
            refuse(request);
            return;
        }
        serve(request);
    }

    /** Asks the activity to end; requests still queued when it does fail. */
    public void terminate() {
        active = false;
        final Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Waits until the body's thread has ended, at most {@code timeout}; returns whether it has. */
    public boolean join(final Duration timeout) throws InterruptedException {
        return thread == null || thread.join(timeout);
    }

    private void refuse(final Request request) {
        request.left();
        if (request.reply != null && !request.reply.isOneWay()) {
            request.reply.fail(new TerminatedException("Active object " + id + " ("
                    + target.getClass().getName() + ") is terminated; " + request + " was not served"));
        }
    }

    /** Fails what is left; runs in the body's thread after {@code active} is false, so no request is missed. */
    private void failQueued() {
        drainInbox();
        for (Request r; (r = queue.pollFirst()) != null; ) {
            refuse(r);
        }
    }

    private void serve(final Request request) {
        request.left();
        if (Thread.currentThread() == thread) {
            counts.served(request.queuedAt);
        } else {
            meters.servedAtOnce(); // an immediate service, on its caller's thread
        }
        if (request.reply != null) {
            request.reply.serving();
        }
        final Object result;
        try {
            result = invoker.invoke(target, request.method, request.args);
        } catch (Throwable t) {
            try {
                if (request.reply == null || request.reply.isOneWay()) {
                    meters.oneWayFailed();
                }
                if (request.reply == null) {
                    OneWayFailures.report(CallResults.describe(request.reflected, name), t);
                } else if (request.reply.isOneWay()) {
                    request.reply.failOneWay(CallResults.describe(request.reflected, name), t);
                } else {
                    request.reply.fail(t);
                }
            } catch (Throwable again) { // the body serves on, whatever the failure does when it is told
                LOG.error(
                        "Could not report the failure of {} on active object {} ({})",
                        request,
                        id,
                        again.getClass().getName());
            }
            return;
        }
        if (request.reply != null) {
            try {
                replyWith(request.reply, result);
            } catch (Throwable t) { // the caller must hear of it, and the body serve on
                LOG.error("Could not answer {} on active object {}", request, id, t);
                try {
                    request.reply.fail(t);
                } catch (Throwable again) {
                    LOG.error("Could not tell the caller of {} either", request, again);
                }
            }
        }
    }

    /** Replies with a method's result; a completion stage or future result is replied to when it completes. */
    private static void replyWith(final ReplySink reply, final Object result) {
        if (result instanceof CompletionStage<?> stage) {
            stage.whenComplete((v, t) -> {
                if (t != null) {
                    reply.fail(t instanceof CompletionException && t.getCause() != null ? t.getCause() : t);
                } else {
                    reply.complete(v);
                }
            });
        } else if (result instanceof Future<?> future) {
            Thread.ofVirtual().start(() -> {
                try {
                    reply.complete(future.get());
                } catch (ExecutionException e) {
                    reply.fail(e.getCause());
                } catch (Throwable t) {
                    reply.fail(t);
                }
            });
        } else {
            reply.complete(result);
        }
    }

    // --- Service ---

    /**
     * Finds (and unless {@code keep}, removes) the oldest or youngest request the filter accepts; if blocking,
     * waits for one. Null when there is none, or once terminated.
     */
    private Request find(
            final Predicate<RequestInfo> filter, final boolean oldest, final boolean blocking, final boolean keep) {
        checkOwnThread();
        boolean interrupted = false;
        try {
            while (true) {
                drainInbox();
                if (!active) {
                    return null; // terminated: what is queued fails when the activity ends
                }
                final Iterator<Request> it = oldest ? queue.iterator() : queue.descendingIterator();
                while (it.hasNext()) {
                    final Request r = it.next();
                    if (filter == null || filter.test(r)) {
                        if (!keep) {
                            it.remove();
                        }
                        return r;
                    }
                }
                if (!blocking) {
                    return null;
                }
                interrupted |= idleWait.await();
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void drainInbox() {
        for (Request r; (r = inbox.poll()) != null; ) {
            queue.addLast(r);
        }
    }

    private void checkOwnThread() {
        if (thread != null && Thread.currentThread() != thread) {
            throw new IllegalStateException("Only the active object's own thread may serve its requests");
        }
    }

    /** Serves the request {@link #find} takes; whether there was one. */
    private boolean serveFound(final Predicate<RequestInfo> filter, final boolean oldest, final boolean blocking) {
        final Request r = find(filter, oldest, blocking, false);
        if (r == null) {
            return false;
        }
        serve(r);
        return true;
    }

    private static Predicate<RequestInfo> named(final String methodName) {
        return r -> r.methodName().equals(methodName);
    }

    @Override
    public boolean serveOldest() {
        return serveFound(null, true, false);
    }

    @Override
    public boolean serveOldest(final String methodName) {
        return serveFound(named(methodName), true, false);
    }

    @Override
    public boolean serveOldest(final Predicate<RequestInfo> filter) {
        return serveFound(filter, true, false);
    }

    @Override
    public boolean serveYoungest() {
        return serveFound(null, false, false);
    }

    @Override
    public boolean serveYoungest(final String methodName) {
        return serveFound(named(methodName), false, false);
    }

    @Override
    public boolean blockingServeOldest() {
        return serveFound(null, true, true);
    }

    @Override
    public boolean blockingServeOldest(final String methodName) {
        return serveFound(named(methodName), true, true);
    }

    @Override
    public boolean blockingServeOldest(final Predicate<RequestInfo> filter) {
        return serveFound(filter, true, true);
    }

    @Override
    public boolean waitForRequest(final Predicate<RequestInfo> filter) {
        return find(filter, true, true, true) != null;
    }

    @Override
    public boolean hasRequest() {
        return queueLength() > 0;
    }

    @Override
    public boolean hasRequest(final String methodName) {
        return find(named(methodName), true, false, true) != null;
    }

    @Override
    public int queueLength() {
        checkOwnThread();
        drainInbox();
        return queue.size();
    }

    @Override
    public void fifoServing() {
        while (blockingServeOldest()) {
            // serve until terminated
        }
    }

    @Override
    public boolean isActive() {
        return active;
    }
}
