package org.troupe.core.service;

/** An active object's class implements this to run code in its own thread before it serves any request. */
public interface InitActive {
    void initActivity(Service service);
}
