package org.troupe.core.exceptions;

import java.io.Serial;

/** A wait for a future ended before the future was resolved; the future itself is unaffected. */
public class FutureTimeoutException extends TroupeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public FutureTimeoutException(final String message) {
        super(message);
    }
}
