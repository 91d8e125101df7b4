package org.troupe.core.exceptions;

import java.io.Serial;

/**
 * Thrown where a future is touched when the call behind it failed with a checked exception (the cause), or with an
 * exception that could not be rebuilt in this JVM (then {@link #remoteClassName()} names it and the cause's stack
 * trace is the callee's).
 */
public class CallFailedException extends TroupeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String remoteClassName;

    public CallFailedException(final String message, final String remoteClassName, final Throwable cause) {
        super(message, cause);
        this.remoteClassName = remoteClassName;
    }

    /** The class of the exception the callee threw. */
    public String remoteClassName() {
        return remoteClassName;
    }
}
