package org.troupe.core.exceptions;

import java.io.Serial;

/** A call reached, or was waiting at, an active object or runtime that has been terminated. */
public class TerminatedException extends TroupeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public TerminatedException(final String message) {
        super(message);
    }
}
