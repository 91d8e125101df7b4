package org.troupe.core.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.troupe.core.TerminatedException;
import org.troupe.core.proxy.Invoker;
import org.troupe.core.proxy.MethodTable;
import org.troupe.core.proxy.ProxyGenerator;
import org.troupe.core.service.EndActive;
import org.troupe.core.service.InitActive;
import org.troupe.core.service.RequestInfo;
import org.troupe.core.service.RunActive;
import org.troupe.core.service.Service;

/**
 * The active part of an active object: the object itself, its request queue and the virtual thread that serves the
 * queue. Requests are served one at a time, so the object's code never runs concurrently with itself (immediate
 * methods excepted).
 */
public final class Body implements Service {
    private static final Logger LOG = LoggerFactory.getLogger(Body.class);

    private final long id;
    private final Object target;
    private final MethodTable table;
    private final Invoker invoker;
    private final long spinNanos;
    private final Runnable onEnd;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    /** Requests queued, readable without the lock so an idle body can spin on it. */
    private volatile int queued;
    private volatile boolean active = true;
    private Thread thread;

    public Body(final long id, final Object target, final long spinNanos, final Runnable onEnd) {
        this.id = id;
        this.target = target;
        this.table = MethodTable.of(target.getClass());
        this.invoker = ProxyGenerator.invoker(target.getClass());
        this.spinNanos = spinNanos;
        this.onEnd = onEnd;
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

    /** Starts the body's thread. */
    public void start(final String name) {
        thread = Thread.ofVirtual().name(name).unstarted(this::live);
        thread.start();
    }

    private void live() {
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
            LOG.error("The activity of active object {} ({}) failed; it serves no more requests", id,
                target.getClass().getName(), t);
        } finally {
            active = false;
            failQueued();
            onEnd.run();
        }
    }

    /** Queues a request; fails it at once if this body no longer serves. */
    public void enqueue(final Request request) {
        lock.lock();
        try {
            if (active) {
                queue.addLast(request);
                queued = queue.size();
                arrived.signal();
                return;
            }
        } finally {
            lock.unlock();
        }
        refuse(request);
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
        lock.lock();
        try {
            active = false;
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the body's thread has ended, at most {@code timeout}; returns whether it has. */
    public boolean join(final java.time.Duration timeout) throws InterruptedException {
        return thread == null || thread.join(timeout);
    }

    private void refuse(final Request request) {
        if (request.reply != null) {
            request.reply.fail(new TerminatedException("Active object " + id + " (" + target.getClass().getName()
                + ") is terminated; " + request + " was not served"));
        }
    }

    private void failQueued() {
        final List<Request> left;
        lock.lock();
        try {
            left = new ArrayList<>(queue);
            queue.clear();
            queued = 0;
        } finally {
            lock.unlock();
        }
        left.forEach(this::refuse);
    }

    private void serve(final Request request) {
        final Object result;
        try {
            result = invoker.invoke(target, request.method, request.args);
        } catch (Throwable t) {
            if (request.reply != null) {
                request.reply.fail(t);
            } else {
                LOG.warn("One-way call {} on active object {} threw", request, id, t);
            }
            return;
        }
        if (request.reply != null) {
            replyWith(request.reply, result);
        }
    }

    /** Replies with a method's result; a completion stage or future result is replied to when it completes. */
    private static void replyWith(final ReplySink reply, final Object result) {
        if (result instanceof CompletionStage<?> stage) {
            stage.whenComplete((v, t) -> {
                if (t != null) {
                    reply.fail(t instanceof java.util.concurrent.CompletionException && t.getCause() != null
                        ? t.getCause() : t);
                } else {
                    reply.complete(v);
                }
            });
        } else if (result instanceof Future<?> future) {
            Thread.ofVirtual().start(() -> {
                try {
                    reply.complete(future.get());
                } catch (java.util.concurrent.ExecutionException e) {
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

    /** Finds (and unless {@code keep}, removes) a request; blocking waits for one, until terminated. */
    private Request take(final Predicate<RequestInfo> filter, final boolean oldest, final boolean blocking) {
        return find(filter, oldest, blocking, false);
    }

    private Request find(final Predicate<RequestInfo> filter, final boolean oldest, final boolean blocking,
                         final boolean keep) {
        checkOwnThread();
        if (blocking && queued == 0 && active) {
            final long end = System.nanoTime() + spinNanos;
            while (queued == 0 && active && System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }
        lock.lock();
        try {
            while (active) {
                final Iterator<Request> it = oldest ? queue.iterator() : queue.descendingIterator();
                while (it.hasNext()) {
                    final Request r = it.next();
                    if (filter == null || filter.test(r)) {
                        if (!keep) {
                            it.remove();
                            queued = queue.size();
                        }
                        return r;
                    }
                }
                if (!blocking) {
                    return null;
                }
                arrived.awaitUninterruptibly();
            }
            return null; // terminated: what is queued fails when the activity ends
        } finally {
            lock.unlock();
        }
    }

    private void checkOwnThread() {
        if (thread != null && Thread.currentThread() != thread) {
            throw new IllegalStateException("Only the active object's own thread may serve its requests");
        }
    }

    private boolean serveTaken(final Request r) {
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
        return serveTaken(take(null, true, false));
    }

    @Override
    public boolean serveOldest(final String methodName) {
        return serveTaken(take(named(methodName), true, false));
    }

    @Override
    public boolean serveOldest(final Predicate<RequestInfo> filter) {
        return serveTaken(take(filter, true, false));
    }

    @Override
    public boolean serveYoungest() {
        return serveTaken(take(null, false, false));
    }

    @Override
    public boolean serveYoungest(final String methodName) {
        return serveTaken(take(named(methodName), false, false));
    }

    @Override
    public boolean blockingServeOldest() {
        return serveTaken(take(null, true, true));
    }

    @Override
    public boolean blockingServeOldest(final String methodName) {
        return serveTaken(take(named(methodName), true, true));
    }

    @Override
    public boolean blockingServeOldest(final Predicate<RequestInfo> filter) {
        return serveTaken(take(filter, true, true));
    }

    @Override
    public boolean waitForRequest(final Predicate<RequestInfo> filter) {
        return find(filter, true, true, true) != null;
    }

    @Override
    public boolean hasRequest() {
        return queued > 0;
    }

    @Override
    public boolean hasRequest(final String methodName) {
        lock.lock();
        try {
            return queue.stream().anyMatch(named(methodName));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int queueLength() {
        return queued;
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
