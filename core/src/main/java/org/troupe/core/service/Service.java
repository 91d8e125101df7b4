package org.troupe.core.service;

import java.util.function.Predicate;

/**
 * The request queue of an active object, as its own activity sees it ({@link RunActive}). Requests are served one
 * at a time in the active object's thread; a serve method runs the request's method and sends its reply before it
 * returns. Only the active object's own thread may call these methods.
 */
public interface Service {
    /** Serves the oldest request if there is one; returns whether it served one. */
    boolean serveOldest();

    /** Serves the oldest request for a method of that name, if there is one. */
    boolean serveOldest(String methodName);

    /** Serves the oldest request the filter accepts, if there is one. */
    boolean serveOldest(Predicate<RequestInfo> filter);

    /** Serves the youngest request (the last to arrive), if there is one. */
    boolean serveYoungest();

    /** Serves the youngest request for a method of that name, if there is one. */
    boolean serveYoungest(String methodName);

    /**
     * Waits for a request and serves it. Returns false, without serving, once the active object is terminated, so
     * {@code while (service.blockingServeOldest()) { }} ends when it should.
     */
    boolean blockingServeOldest();

    /** Waits for a request for a method of that name and serves it; false once terminated. */
    boolean blockingServeOldest(String methodName);

    /** Waits for a request the filter accepts and serves it; false once terminated. */
    boolean blockingServeOldest(Predicate<RequestInfo> filter);

    /** Waits, without serving, until a request the filter accepts is queued; false once terminated. */
    boolean waitForRequest(Predicate<RequestInfo> filter);

    boolean hasRequest();

    boolean hasRequest(String methodName);

    /** Requests waiting now. */
    int queueLength();

    /** Serves requests in arrival order until the active object is terminated: the default activity. */
    void fifoServing();

    /** False once the active object has been asked to terminate: an activity should then return. */
    boolean isActive();
}
