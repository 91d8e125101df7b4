package org.troupe.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The live active objects of one runtime, by id; an object leaves when its activity ends. */
public final class Bodies {
    private final Map<Long, Body> byId = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(1);

    /** A fresh object id, unique in this runtime. */
    public long nextId() {
        return nextId.getAndIncrement();
    }

    public void add(final Body body) {
        byId.put(body.id(), body);
    }

    /** Called when a body's activity ends. */
    public void remove(final long id) {
        byId.remove(id);
    }

    /** The live body with that id, or null. */
    public Body get(final long id) {
        return byId.get(id);
    }

    public int size() {
        return byId.size();
    }

    /**
     * Terminates every body and waits for them to end, at most {@code wait} in all; returns those still busy in
     * application code then ({@code Class#id}), which cannot be stopped.
     */
    public List<String> terminateAll(final Duration wait) {
        final List<Body> all = new ArrayList<>(byId.values());
        all.forEach(Body::terminate);
        final long deadline = System.nanoTime() + wait.toNanos();
        final List<String> stuck = new ArrayList<>();
        for (final Body b : all) {
            try {
                if (!b.join(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                    stuck.add(b.target().getClass().getName() + "#" + b.id());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return stuck;
    }
}
