package org.troupe.core.service;

/** An active object's class implements this to run code in its own thread after its activity ends. */
public interface EndActive {
    void endActivity(Service service);
}
