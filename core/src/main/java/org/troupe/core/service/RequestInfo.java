package org.troupe.core.service;

/** What a service policy may look at in a queued request before serving it. */
public interface RequestInfo {
    /** The name of the method called. */
    String methodName();

    /** The declared parameter types of the method called. */
    Class<?>[] parameterTypes();
}
