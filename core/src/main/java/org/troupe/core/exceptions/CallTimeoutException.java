package org.troupe.core.exceptions;

import java.io.Serial;

/**
 * A call to an active object of another JVM got no reply within the call deadline
 * ({@code troupe.core.callTimeoutMillis}): its future failed with this. The call may still run there; a reply that
 * comes later is dropped.
 */
public class CallTimeoutException extends TroupeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public CallTimeoutException(final String message) {
        super(message);
    }
}
