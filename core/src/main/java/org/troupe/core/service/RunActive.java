package org.troupe.core.service;

/**
 * An active object's class implements this to decide itself which requests to serve and when (its activity).
 * Without it, requests are served in arrival order. The activity should return once {@link Service#isActive()} is
 * false; requests still queued then fail with a {@link org.troupe.core.exceptions.TerminatedException}.
 */
public interface RunActive {
    void runActivity(Service service);
}
